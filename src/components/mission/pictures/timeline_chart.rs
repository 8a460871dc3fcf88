//! The timeline: a lane a task, grouped by plan and wave (core's `timeline`), zoomed and
//! scrolled in time by keyboard (+ and −, ← and →, 0 for all of it) or mouse (Ctrl and
//! the wheel, a drag, a sideways wheel); ↑ and ↓ step through the tasks, read out.

use super::axes::Axes;
use super::cursor::{pointer_x, show_lane, stepped};
use super::frame::{moment, WIDTH};
use super::timeline_bars::TimelineBars;
use super::timeline_labels::TimelineLabels;
use super::timeline_layout::{height, rows_drawn, View, LABEL_W, PLOT_W};
use buildd_core::insights::timeline::Timeline;
use leptos::prelude::*;

/// How much closer one press of + comes, and how far one press of an arrow moves.
const ZOOM: f64 = 2.0;
const PAN: f64 = 0.2;

/// The view a key moves to, for the keys that zoom and scroll.
fn moved(key: &str, v: View) -> Option<View> {
    Some(match key {
        "+" | "=" => v.zoomed(ZOOM, 0.5),
        "-" | "_" => v.zoomed(1.0 / ZOOM, 0.5),
        "0" => View::default(),
        "ArrowLeft" => v.panned(-PAN),
        "ArrowRight" => v.panned(PAN),
        _ => return None,
    })
}

#[component]
pub fn TimelineChart(timeline: Memo<Timeline>, said: RwSignal<Option<String>>) -> impl IntoView {
    let part = RwSignal::new(View::default());
    let selected = RwSignal::new(None::<usize>);
    let scroll = NodeRef::<leptos::html::Div>::new();
    let tall = Memo::new(move |_| timeline.with(height));
    let frame = Memo::new(move |_| timeline.with(|tl| part.get().frame(tl, tall.get())));
    // The rows near the box's view; the rest are not drawn until scrolled to.
    let drawn = RwSignal::new(rows_drawn(0.0, 0.0, 1.0));
    let on_scroll = move |_| {
        let Some(div) = scroll.get_untracked() else {
            return;
        };
        let top = f64::from(div.scroll_top());
        let px_per_unit = f64::from(div.scroll_height()) / tall.get_untracked();
        let next = rows_drawn(top, top + f64::from(div.client_height()), px_per_unit);
        if drawn.get_untracked() != next {
            drawn.set(next);
        }
    };
    Effect::new(move |_| {
        let bar = selected.get().and_then(|i| {
            timeline.with(|tl| {
                let b = tl.bars.get(i)?;
                let group = &tl.groups.get(b.group)?.title;
                Some(format!("{} ({group}, wave {})", b.figures(), b.wave))
            })
        });
        said.set(bar);
    });
    // Says what is in view once the view moves, so a zoom is heard as well as seen.
    let show = move |v: View| {
        part.set(v);
        let (from, to) = frame.with_untracked(|f| f.x.scale.domain);
        said.set(Some(format!(
            "Showing {} to {}",
            moment(from as i64),
            moment(to as i64)
        )));
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        if let Some(v) = moved(&key, part.get_untracked()) {
            ev.prevent_default();
            return show(v);
        }
        // Down the lanes is on through the tasks.
        let along = match key.as_str() {
            "ArrowDown" => "ArrowRight",
            "ArrowUp" => "ArrowLeft",
            k => k,
        };
        let count = timeline.with_untracked(|tl| tl.bars.len());
        let next = match (selected.get_untracked(), along) {
            // The first step down starts at the top.
            (None, "ArrowRight") => (count > 0).then_some(0),
            (at, k) => stepped(k, at, count),
        };
        if let Some(i) = next {
            ev.prevent_default();
            selected.set(Some(i));
            show_lane(scroll);
        }
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        let v = part.get_untracked();
        if ev.ctrl_key() || ev.meta_key() {
            ev.prevent_default();
            let around = pointer_x(&ev).map_or(0.5, |x| (x - LABEL_W) / PLOT_W);
            show(v.zoomed(if ev.delta_y() < 0.0 { 1.25 } else { 0.8 }, around));
        } else if ev.shift_key() || ev.delta_x().abs() > ev.delta_y().abs() {
            ev.prevent_default();
            let d = if ev.delta_x() != 0.0 {
                ev.delta_x()
            } else {
                ev.delta_y()
            };
            show(v.panned(d.signum() * PAN / 2.0));
        }
    };
    // A drag moves the history with the pointer.
    let drag = StoredValue::new(None::<(f64, View)>);
    let on_down = move |ev: web_sys::PointerEvent| {
        drag.set_value(
            pointer_x(&ev)
                .filter(|_| ev.button() == 0)
                .map(|x| (x, part.get_untracked())),
        );
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if let (Some((x0, v0)), Some(x)) = (
            drag.get_value().filter(|_| ev.buttons() & 1 == 1),
            pointer_x(&ev),
        ) {
            part.set(v0.panned(-(x - x0) / PLOT_W));
        }
    };
    view! {
        <div class="pic__scroll" node_ref=scroll on:scroll=on_scroll>
            <svg
                class="pic__svg pic__svg--timeline"
                viewBox=move || format!("0 0 {WIDTH} {}", tall.get())
                role="img"
                aria-label=move || timeline.with(Timeline::describe)
                tabindex="0"
                data-testid="timeline-svg"
                on:keydown=on_key
                on:wheel=on_wheel
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=move |_| drag.set_value(None)
                on:pointerleave=move |_| {
                    drag.set_value(None);
                    selected.set(None);
                }
            >
                <Axes frame />
                <TimelineLabels timeline selected drawn />
                <svg x=LABEL_W y=0 width=PLOT_W height=tall overflow="hidden">
                    <g data-testid="timeline-bars" transform=move || part.get().transform()>
                        <TimelineBars timeline selected drawn />
                    </g>
                </svg>
            </svg>
        </div>
    }
}
