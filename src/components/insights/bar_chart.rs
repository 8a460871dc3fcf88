//! A bar chart of columns (weeks, hours): a bar per series in each, 1-2-5 ticks up the
//! side, and the column hovered or focused marked and read out. ← and → step through the
//! columns, Home and End go to the ends (the mission pictures' keys).

use super::bars::Bars;
use crate::components::mission::pictures::frame::{HEIGHT, LEFT, RIGHT, TOP, WIDTH};
use leptos::prelude::*;

#[component]
pub fn BarChart(
    bars: Memo<Bars>,
    /// Each series' class modifier, in the order of `values`.
    series: &'static [&'static str],
    value_label: fn(f64) -> String,
    /// The chart in a sentence, its label for screen readers.
    #[prop(into)]
    label: Signal<String>,
    testid: &'static str,
    said: RwSignal<Option<String>>,
) -> impl IntoView {
    let at = RwSignal::new(None::<usize>);
    Effect::new(move |_| said.set(at.get().and_then(|i| bars.with(|b| b.said.get(i).cloned()))));
    let scale = Memo::new(move |_| bars.with(|b| b.scale(1.0)));
    let ticks = move || {
        let y = scale.get();
        y.ticks(4)
            .into_iter()
            .map(|t| {
                let at = y.map(t.value);
                view! {
                    <line class="pic__grid" x1=LEFT x2=WIDTH - RIGHT y1=at y2=at></line>
                    <text class="pic__tick" x=LEFT - 6.0 y=at + 4.0 text-anchor="end">
                        {value_label(t.value)}
                    </text>
                }
            })
            .collect_view()
    };
    let columns = move || {
        let y = scale.get();
        let base = y.map(0.0);
        bars.with(|b| {
            let every = b.labels.len().div_ceil(12).max(1);
            (0..b.labels.len())
                .map(|i| {
                    let (x, w) = b.column(i);
                    let n = series.len() as f64;
                    let bar_w = w * 0.8 / n;
                    let shade = b.shaded.get(i).copied().unwrap_or(false).then(|| {
                        view! { <rect class="pic__shade" x=x y=TOP width=w height=base - TOP></rect> }
                    });
                    let drawn = b.values[i]
                        .iter()
                        .enumerate()
                        .filter_map(|(k, v)| Some((k, (*v)?)))
                        .map(|(k, v)| {
                            let top = y.map(v);
                            view! {
                                <rect
                                    class=format!("pic__bar pic__bar-{}", series[k])
                                    data-series=series[k]
                                    x=x + w * 0.1 + bar_w * k as f64
                                    y=top
                                    width=bar_w
                                    height=(base - top).max(0.0)
                                ></rect>
                            }
                        })
                        .collect_view();
                    let tick = (i % every == 0).then(|| {
                        view! {
                            <text
                                class="pic__tick"
                                x=x + w / 2.0
                                y=base + 16.0
                                text-anchor="middle"
                            >
                                {b.labels[i].clone()}
                            </text>
                        }
                    });
                    view! { <g>{shade} {drawn} {tick}</g> }
                })
                .collect_view()
        })
    };
    let cursor = move || {
        let i = at.get()?;
        let (x, w) = bars.with(|b| b.column(i));
        let base = scale.get().map(0.0);
        Some(view! { <rect class="pic__focus" x=x y=TOP width=w height=base - TOP></rect> })
    };
    let count = move || bars.with_untracked(|b| b.labels.len());
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let last = count().saturating_sub(1);
        let next = match (ev.key().as_str(), at.get_untracked()) {
            ("Home", _) => 0,
            ("End", _) | ("ArrowLeft" | "ArrowRight", None) => last,
            ("ArrowLeft", Some(i)) => i.saturating_sub(1),
            ("ArrowRight", Some(i)) => (i + 1).min(last),
            _ => return,
        };
        ev.prevent_default();
        at.set(Some(next));
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        let x = crate::components::mission::pictures::cursor::pointer_x(&ev);
        at.set(x.and_then(|x| {
            let (left, w) = bars.with_untracked(|b| b.column(0));
            let i = ((x - left) / w).floor();
            (i >= 0.0 && (i as usize) < count()).then_some(i as usize)
        }));
    };
    view! {
        <svg
            class="pic__svg"
            viewBox=format!("0 0 {WIDTH} {HEIGHT}")
            role="img"
            aria-label=label
            tabindex="0"
            data-testid=format!("{testid}-svg")
            data-columns=move || bars.with(|b| b.labels.len()).to_string()
            on:keydown=on_key
            on:pointermove=on_move
            on:pointerleave=move |_| at.set(None)
            on:blur=move |_| at.set(None)
        >
            <g class="pic__axes" aria-hidden="true">
                {ticks}
            </g>
            {columns}
            {cursor}
        </svg>
    }
}
