//! The burn-up: the mission's deliverables stacked by where they stood at each moment —
//! done at the bottom, so its edge is the line that climbs — with plan approvals and
//! check-ins marked across it. The bands are core's step paths over core's scales.

use super::axes::{count_label, Axes};
use super::cursor::{mark, on_keys, on_pointer, standing_at};
use super::frame::{moment, Frame, TOP};
use buildd_core::insights::burn_up::{BurnUp, BurnUpPoint, MarkerKind};
use buildd_core::insights::downsample::column_ends;
use buildd_core::insights::path::step_band_path;
use leptos::prelude::*;

/// The bands from the bottom: (class and `data-series`, legend).
pub const BANDS: [(&str, &str); 5] = [
    ("done", "Done"),
    ("awaiting", "Awaiting merge"),
    ("in-flight", "In flight"),
    ("failed", "Failed"),
    ("not-started", "Not started"),
];

/// The band edges of a point, bottom to top: 0, done, done + awaiting merge, … total.
fn edges(p: &BurnUpPoint) -> [u32; 6] {
    let counts = [
        p.done,
        p.awaiting_merge,
        p.in_flight,
        p.failed,
        p.not_started,
    ];
    let mut e = [0; 6];
    for (i, c) in counts.into_iter().enumerate() {
        e[i + 1] = e[i] + c;
    }
    e
}

/// What point `i` says, with what was marked from it until the next.
fn figures(b: &BurnUp, i: usize) -> Option<String> {
    let p = b.points.get(i)?;
    let until = b.points.get(i + 1).map_or(i64::MAX, |n| n.at_ms);
    let marked: Vec<&str> = (b.markers.iter())
        .filter(|m| (p.at_ms..until).contains(&m.at_ms))
        .map(|m| m.label.as_str())
        .collect();
    let mut text = format!("{}: {}", moment(p.at_ms), p.figures());
    if !marked.is_empty() {
        text.push_str(&format!("; {}", marked.join("; ")));
    }
    Some(text)
}

#[component]
pub fn BurnUpChart(burn: Memo<BurnUp>, said: RwSignal<Option<String>>) -> impl IntoView {
    let frame = Memo::new(move |_| {
        burn.with(|b| {
            let (first, last) = (b.points.first(), b.points.last());
            let top = b.points.iter().map(BurnUpPoint::total).max().unwrap_or(0);
            // Four at least, so the ticks count whole deliverables.
            Frame::new(
                first.map_or(0, |p| p.at_ms),
                last.map_or(0, |p| p.at_ms),
                f64::from(top.max(4)),
            )
        })
    });
    let at = RwSignal::new(None::<usize>);
    Effect::new(move |_| said.set(at.get().and_then(|i| burn.with(|b| figures(b, i)))));
    let bands = move || {
        let f = frame.get();
        burn.with(|b| {
            let all: Vec<f64> = b.points.iter().map(|p| f.x.map(p.at_ms)).collect();
            // Two columns a unit are finer than the drawing shows at any width it takes.
            let kept = column_ends(&all, 2.0);
            let xs: Vec<f64> = kept.iter().map(|&i| all[i]).collect();
            let edges: Vec<[u32; 6]> = kept.iter().map(|&i| edges(&b.points[i])).collect();
            let y =
                |k: usize| -> Vec<f64> { edges.iter().map(|e| f.y.map(f64::from(e[k]))).collect() };
            BANDS
                .iter()
                .enumerate()
                .map(|(k, (key, _))| {
                    view! {
                        <path
                            class=format!("pic__band pic__band--{key}")
                            data-series=*key
                            d=step_band_path(&xs, &y(k + 1), &y(k))
                        ></path>
                    }
                })
                .collect_view()
        })
    };
    let markers = move || {
        let f = frame.get();
        burn.with(|b| {
            b.markers
                .iter()
                .map(|m| {
                    let (x, kind) = (
                        f.x.map(m.at_ms),
                        match m.kind {
                            MarkerKind::PlanApproved => "plan-approved",
                            MarkerKind::CheckIn => "check-in",
                        },
                    );
                    view! {
                        <g
                            class=format!("pic__marker pic__marker--{kind}")
                            data-testid="burn-up-marker"
                            data-kind=kind
                        >
                            <title>{format!("{}: {}", moment(m.at_ms), m.label)}</title>
                            <line x1=x x2=x y1=TOP y2=f.bottom()></line>
                            <circle cx=x cy=TOP r=4></circle>
                        </g>
                    }
                })
                .collect_view()
        })
    };
    let cursor = move || {
        let p = at
            .get()
            .and_then(|i| burn.with(|b| b.points.get(i).copied()))?;
        Some(mark(&frame.get(), p.at_ms, f64::from(p.done)))
    };
    let on_key = on_keys(at, move || burn.with_untracked(|b| b.points.len()));
    let on_move = on_pointer(at, frame, move |t| {
        burn.with_untracked(|b| standing_at(b.points.iter().map(|p| p.at_ms), t))
    });
    view! {
        <svg
            class="pic__svg"
            viewBox=move || format!("0 0 {} {}", super::frame::WIDTH, frame.get().height)
            role="img"
            aria-label=move || burn.with(BurnUp::describe)
            tabindex="0"
            data-testid="burn-up-svg"
            data-points=move || burn.with(|b| b.points.len()).to_string()
            on:keydown=on_key
            on:pointermove=on_move
            on:pointerleave=move |_| at.set(None)
            on:blur=move |_| at.set(None)
        >
            <Axes frame value_label=count_label />
            <g class="pic__bands">{bands}</g>
            {markers}
            {cursor}
        </svg>
    }
}
