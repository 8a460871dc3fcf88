//! `cargo xtask bench`'s figures for a mission's pictures at 10,000: the series computed
//! from 10,000 tasks (burn-up, timeline) and 10,000 spend reports, and the drawing of each
//! (scales, per-column downsampling, SVG path strings), natively with buildd-core's own
//! code, which the dashboard runs in wasm. Printed with a budget of one frame; nothing is
//! asserted.

use buildd_core::enums::{TaskClass, TaskMode, TaskStatus};
use buildd_core::insights::burn_up::burn_up;
use buildd_core::insights::downsample::{downsample, to_pixels};
use buildd_core::insights::events::{PrEvents, TaskEvents};
use buildd_core::insights::path::{step_band_path, step_path};
use buildd_core::insights::scale::{LinearScale, TimeScale};
use buildd_core::insights::spend_series::{spend_series, SpendPoint};
use buildd_core::insights::timeline::timeline;
use std::time::Instant;

const N: i64 = 10_000;
const START: i64 = 1_796_000_000_000;
const MINUTE: i64 = 60_000;
/// One frame at 60 Hz.
const BUDGET_MS: f64 = 16.7;

/// RFC 3339, as the server writes times.
fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339()
}

/// 10,000 tasks of 100 plans: filed a minute apart, claimed, most done, some failed, one
/// in five with a merged PR.
fn tasks() -> Vec<TaskEvents> {
    (0..N)
        .map(|i| {
            let at = |m: i64| Some(iso(START + (i + m) * MINUTE));
            let plan = i % 100 == 0;
            TaskEvents {
                id: format!("t{i}"),
                title: format!("Task {i}"),
                class: if plan {
                    TaskClass::Bookkeeping
                } else {
                    TaskClass::Work
                },
                mode: if plan {
                    TaskMode::Planning
                } else {
                    TaskMode::Execution
                },
                status: if i % 13 == 0 {
                    TaskStatus::Failed
                } else {
                    TaskStatus::Completed
                },
                parent_task_id: (!plan).then(|| format!("t{}", i / 100 * 100)),
                depends_on: if i % 100 > 1 {
                    vec![format!("t{}", i - 1)]
                } else {
                    vec![]
                },
                created_at: at(0),
                claimed_at: at(2),
                finished_at: at(30),
                live: false,
                pr: (i % 5 == 0).then(|| PrEvents {
                    number: Some(i),
                    opened_at: at(30),
                    merged_at: at(45),
                }),
                cost_usd: Some("0.25".into()),
            }
        })
        .collect()
}

/// The median of `rounds` runs of `f`, in milliseconds.
fn timed<T>(rounds: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[times.len() / 2]
}

fn line(what: &str, ms: f64) {
    let verdict = if ms <= BUDGET_MS { "within" } else { "OVER" };
    println!("  {what:<58} {ms:>7.2} ms   budget: <= {BUDGET_MS} ms ({verdict})");
}

pub fn print() {
    println!("\nA mission's pictures at 10,000, natively (buildd-core's insights, median of 7)");
    let tasks = tasks();
    let now = START + (N + 60) * MINUTE;
    line(
        "burn-up of 10,000 tasks: computed",
        timed(7, || burn_up(&tasks, &[], now)),
    );
    let burn = burn_up(&tasks, &[], now);
    let x = TimeScale::new((START, now), (56.0, 700.0), 0);
    let y = LinearScale::new((0.0, N as f64), (194.0, 12.0)).nice(4);
    let bands = || {
        let xs: Vec<f64> = burn.points.iter().map(|p| x.map(p.at_ms)).collect();
        let ys = |f: fn(&buildd_core::insights::burn_up::BurnUpPoint) -> u32| -> Vec<f64> {
            burn.points.iter().map(|p| y.map(f64::from(f(p)))).collect()
        };
        let (zero, done, total) = (ys(|_| 0), ys(|p| p.done), ys(|p| p.total()));
        (
            step_band_path(&xs, &done, &zero),
            step_band_path(&xs, &total, &done),
        )
    };
    let what = format!("burn-up of {} points: two bands drawn", burn.points.len());
    line(&what, timed(7, bands));
    line(
        "timeline of 10,000 tasks: computed",
        timed(7, || timeline(&tasks, now)),
    );
    let points: Vec<SpendPoint> = (0..N)
        .map(|i| SpendPoint {
            at: iso(START + i * MINUTE),
            cost_usd: format!("0.{:02}", i % 100),
            started_at: None,
            mission_id: None,
            workspace_id: None,
        })
        .collect();
    let spend = || spend_series(&points, None, None, now, 0);
    line("spend of 10,000 reports: computed", timed(7, spend));
    let series = spend();
    let draw = || {
        let values: Vec<(f64, f64)> = series
            .steps
            .iter()
            .map(|s| (s.at_ms as f64, s.spent.as_f64()))
            .collect();
        let y = LinearScale::new((0.0, series.total.as_f64()), (194.0, 12.0)).nice(4);
        step_path(&downsample(&to_pixels(&values, &x.scale, &y)))
    };
    line(
        "spend of 10,000 reports: downsampled and drawn",
        timed(7, draw),
    );
}
