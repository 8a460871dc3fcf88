//! Spend over time: what the mission's tasks cost, stepping up as they report, against the
//! budget line, and the plan in review's forecast drawn dashed ahead of now. The line is
//! downsampled to two points a pixel column (core's `downsample`), so a long history draws
//! as fast as a short one.

use super::axes::{money_label, Axes};
use super::cursor::{mark, on_keys, on_pointer, standing_at};
use super::frame::{moment, Frame, LEFT, RIGHT, WIDTH};
use buildd_core::insights::downsample::{downsample, to_pixels};
use buildd_core::insights::path::step_path;
use buildd_core::insights::spend_series::SpendSeries;
use leptos::prelude::*;

/// The scales: from the first report to the forecast's end, up to the highest of spend,
/// budget and forecast (ten cents at least, so the ticks read as money).
fn frame_of(s: &SpendSeries) -> Frame {
    let from = (s.steps.first().map(|p| p.at_ms))
        .or(s.forecast.map(|f| f.from_ms))
        .unwrap_or(0);
    let to = (s.steps.last().map(|p| p.at_ms))
        .max(s.forecast.map(|f| f.to_ms))
        .unwrap_or(from);
    let top = [Some(s.total), s.budget, s.forecast.map(|f| f.to)]
        .into_iter()
        .flatten()
        .map(|u| u.as_f64())
        .fold(0.1, f64::max);
    Frame::new(from, to, top)
}

#[component]
pub fn SpendChart(spend: Memo<SpendSeries>, said: RwSignal<Option<String>>) -> impl IntoView {
    let frame = Memo::new(move |_| spend.with(frame_of));
    let at = RwSignal::new(None::<usize>);
    Effect::new(move |_| {
        let step = at
            .get()
            .and_then(|i| spend.with(|s| Some((s.steps.get(i).copied()?, s.budget))));
        said.set(step.map(|(p, budget)| match budget {
            Some(b) => format!("{}: {} spent of the {b} budget", moment(p.at_ms), p.spent),
            None => format!("{}: {} spent", moment(p.at_ms), p.spent),
        }));
    });
    let line = move || {
        let f = frame.get();
        spend.with(|s| {
            let values: Vec<(f64, f64)> = s
                .steps
                .iter()
                .map(|p| (p.at_ms as f64, p.spent.as_f64()))
                .collect();
            step_path(&downsample(&to_pixels(&values, &f.x.scale, &f.y)))
        })
    };
    let budget = move || {
        let (f, b) = (frame.get(), spend.with(|s| s.budget)?);
        let y = f.y.map(b.as_f64());
        Some(view! {
            <g class="pic__budget" data-testid="spend-budget">
                <title>{format!("Budget {b}")}</title>
                <line x1=LEFT x2=WIDTH - RIGHT y1=y y2=y></line>
                <text x=LEFT + 4.0 y=y - 4.0>
                    {format!("Budget {b}")}
                </text>
            </g>
        })
    };
    let reached = move || {
        let f = frame.get();
        let (t, b) = spend.with(|s| Some((s.reached_budget_ms?, s.budget?)))?;
        let (x, y) = (f.x.map(t), f.y.map(b.as_f64()));
        Some(view! {
            <circle class="pic__reached" cx=x cy=y r=5 data-testid="spend-reached">
                <title>{format!("{}: the budget was reached", moment(t))}</title>
            </circle>
        })
    };
    let forecast = move || {
        let f = frame.get();
        let fc = spend.with(|s| s.forecast)?;
        let (x1, y1, x2, y2) = (
            f.x.map(fc.from_ms),
            f.y.map(fc.from.as_f64()),
            f.x.map(fc.to_ms),
            f.y.map(fc.to.as_f64()),
        );
        Some(view! {
            <g class="pic__forecast" data-testid="spend-forecast">
                <title>{format!("The plan in review would take spend to {}", fc.to)}</title>
                <line x1=x1 y1=y1 x2=x2 y2=y2></line>
                <text x=x2 y=y2 - 6.0 text-anchor="end">
                    {format!("Plan in review: {}", fc.to)}
                </text>
            </g>
        })
    };
    let cursor = move || {
        let p = at
            .get()
            .and_then(|i| spend.with(|s| s.steps.get(i).copied()))?;
        Some(mark(&frame.get(), p.at_ms, p.spent.as_f64()))
    };
    let on_key = on_keys(at, move || spend.with_untracked(|s| s.steps.len()));
    let on_move = on_pointer(at, frame, move |t| {
        spend.with_untracked(|s| standing_at(s.steps.iter().map(|p| p.at_ms), t))
    });
    view! {
        <svg
            class="pic__svg"
            viewBox=move || format!("0 0 {WIDTH} {}", frame.get().height)
            role="img"
            aria-label=move || spend.with(SpendSeries::describe)
            tabindex="0"
            data-testid="spend-svg"
            data-points=move || spend.with(|s| s.steps.len()).to_string()
            on:keydown=on_key
            on:pointermove=on_move
            on:pointerleave=move |_| at.set(None)
            on:blur=move |_| at.set(None)
        >
            <Axes frame value_label=money_label />
            <path class="pic__line" data-testid="spend-line" d=line></path>
            {budget}
            {forecast}
            {reached}
            {cursor}
        </svg>
    }
}
