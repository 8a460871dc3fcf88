//! The axes every picture shares: clock ticks along the bottom with a faint line up the
//! plot at each, and, for a chart of values, 1-2-5 ticks up the side. Drawn from core's
//! tick rules; hidden from screen readers, which read the picture's label and table.

use super::frame::{Frame, TOP};
use leptos::prelude::*;

/// About this many ticks along each axis.
const TIME_TICKS: usize = 6;
const VALUE_TICKS: usize = 4;

#[component]
pub fn Axes(
    #[prop(into)] frame: Signal<Frame>,
    /// How a value tick reads ("$2.50", "4"); `None`: no value axis (the timeline's lanes).
    #[prop(optional)]
    value_label: Option<fn(f64) -> String>,
) -> impl IntoView {
    let times = move || {
        let f = frame.get();
        let (left, right) = f.x.scale.range;
        f.x.ticks(TIME_TICKS)
            .into_iter()
            .map(|tick| (f.x.map(tick.value as i64), tick.label))
            // A tick a hair outside the plot (rounding) is not drawn over the labels.
            .filter(|(x, _)| *x >= left - 0.5 && *x <= right + 0.5)
            .map(|(x, label)| {
                view! {
                    <line class="pic__grid" x1=x x2=x y1=TOP y2=f.bottom()></line>
                    <text class="pic__tick" x=x y=f.bottom() + 16.0 text-anchor="middle">
                        {label}
                    </text>
                }
            })
            .collect_view()
    };
    let values = move || {
        let label = value_label?;
        let f = frame.get();
        let (left, right) = f.x.scale.range;
        Some(
            f.y.ticks(VALUE_TICKS)
                .into_iter()
                .map(|tick| {
                    let y = f.y.map(tick.value);
                    view! {
                        <line class="pic__grid" x1=left x2=right y1=y y2=y></line>
                        <text class="pic__tick" x=left - 6.0 y=y + 4.0 text-anchor="end">
                            {label(tick.value)}
                        </text>
                    }
                })
                .collect_view(),
        )
    };
    let base = move || {
        let f = frame.get();
        let (left, right) = f.x.scale.range;
        view! { <line class="pic__axis" x1=left x2=right y1=f.bottom() y2=f.bottom()></line> }
    };
    view! {
        <g class="pic__axes" aria-hidden="true">
            {values}
            {times}
            {base}
        </g>
    }
}

/// A count on the value axis: "4".
pub fn count_label(v: f64) -> String {
    format!("{v:.0}")
}

/// Dollars on the value axis: "$2.50", "$10".
pub fn money_label(v: f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("${v:.0}")
    } else {
        format!("${v:.2}")
    }
}
