//! The weeks' pictures: deliverables merged with tasks failed and retried, the median times
//! to merge, and what a merged deliverable cost, a column a week, for the team or one
//! workspace. Where the answers carry no merges or spend (a hosted Buildd), said in place.

use super::bars::Bars;
use super::week_card::WeekCard;
use buildd_core::duration::span;
use buildd_core::insights::weekly::{Figures, Week};
use leptos::prelude::*;

const NO_MERGES_PARTLY: &str = "Buildd's answers carry no merge times, so merges are not \
                                drawn; a failure is dated by its task's last change.";
pub const NO_MERGES: &str =
    "Buildd's answers carry no merge times, so merges and the times to merge are not drawn.";
pub const NO_SPEND: &str = "Buildd's answers carry no spend, so costs are not drawn.";

/// The figures of `ws` (the team's for `None`) in `week`.
pub fn of<'a>(week: &'a Week, ws: Option<&str>) -> &'a Figures {
    ws.and_then(|ws| week.workspaces.iter().find(|w| w.workspace_id == ws))
        .map_or(&week.team, |w| &w.figures)
}

/// Bars a week from `figures`' values, each column said as `say` puts it.
fn bars(
    weeks: &[Week],
    ws: Option<&str>,
    values: impl Fn(&Figures) -> Vec<Option<f64>>,
    say: impl Fn(&Figures) -> String,
) -> Bars {
    Bars {
        labels: weeks.iter().map(|w| w.label[5..].to_string()).collect(),
        values: weeks.iter().map(|w| values(of(w, ws))).collect(),
        said: weeks
            .iter()
            .map(|w| format!("{}: {}", w.label, say(of(w, ws))))
            .collect(),
        shaded: vec![],
    }
}

fn hours(secs: Option<i64>) -> Option<f64> {
    secs.map(|s| s as f64 / 3600.0)
}

fn or_none(secs: Option<i64>) -> String {
    secs.map_or("none merged".into(), span)
}

fn money(v: f64) -> String {
    format!("${v:.2}")
}

#[component]
pub fn WeekCards(weeks: Memo<Vec<Week>>, ws: Memo<Option<String>>, hosted: bool) -> impl IntoView {
    let with = move |f: &dyn Fn(&[Week], Option<&str>) -> Bars| {
        weeks.with(|w| ws.with(|ws| f(w, ws.as_deref())))
    };
    let counts = Memo::new(move |_| {
        with(&|w, ws| {
            bars(
                w,
                ws,
                |f| {
                    let merged = (!hosted).then_some(f64::from(f.merged));
                    vec![
                        merged,
                        Some(f64::from(f.failed)),
                        Some(f64::from(f.retried)),
                    ]
                },
                |f| match hosted {
                    true => format!("{} failed, {} retried", f.failed, f.retried),
                    false => format!(
                        "{} merged, {} failed, {} retried",
                        f.merged, f.failed, f.retried
                    ),
                },
            )
        })
    });
    let times = Memo::new(move |_| {
        with(&|w, ws| {
            bars(
                w,
                ws,
                |f| {
                    vec![
                        hours(f.median_claim_to_merge_secs),
                        hours(f.median_review_wait_secs),
                    ]
                },
                |f| {
                    format!(
                        "median claim to merge {}, review wait {}",
                        or_none(f.median_claim_to_merge_secs),
                        or_none(f.median_review_wait_secs),
                    )
                },
            )
        })
    });
    let cost = Memo::new(move |_| {
        with(&|w, ws| {
            bars(
                w,
                ws,
                |f| vec![f.cost_per_merged.map(|c| c.as_f64())],
                |f| match f.cost_per_merged {
                    Some(c) => format!("{c} per merged deliverable, {} spent", f.spend),
                    None => format!("nothing merged, {} spent", f.spend),
                },
            )
        })
    });
    let missing = |text| hosted.then_some(text);
    view! {
        <WeekCard
            title="Deliverables merged, tasks failed and retried"
            testid="throughput-picture"
            bars=counts
            series=&["merged", "failed", "retried"]
            value_label=|v| format!("{v:.0}")
            legend=&[("done", "Merged"), ("failed", "Failed"), ("awaiting", "Retried")]
            what="deliverables merged, tasks failed and retried"
            missing=missing(NO_MERGES_PARTLY)
            partly=true
        />
        <WeekCard
            title="Median time to merge"
            testid="merge-time-picture"
            bars=times
            series=&["claim", "review"]
            value_label=buildd_core::duration::hours_tick
            legend=&[("in-flight", "Claim to merge"), ("awaiting", "Review wait (PR to merge)")]
            what="median hours from claim to merge and from PR to merge"
            missing=missing(NO_MERGES)
        />
        <WeekCard
            title="Cost per merged deliverable"
            testid="cost-picture"
            bars=cost
            series=&["cost"]
            value_label=money
            legend=&[("spent", "Cost per merged deliverable")]
            what="cost per merged deliverable"
            missing=missing(NO_SPEND)
        />
    }
}
