//! How a person moves along a picture's points: the pointer's time picks the point standing
//! then; the arrow keys step one, Page Up/Down a tenth of them, Home and End to the ends.
//! Shared by the pictures of values, so each answers the same keys and marks the same way.

use super::frame::{Frame, TOP, WIDTH};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The point `key` moves to among `count` from `at` (none yet: the keys start at the
/// latest); `None` for a key that does not move along the points.
pub fn stepped(key: &str, at: Option<usize>, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    let page = (count / 10).max(1);
    Some(match (key, at) {
        ("Home", _) => 0,
        ("End", _) => last,
        ("ArrowLeft" | "ArrowDown" | "ArrowRight" | "ArrowUp" | "PageDown" | "PageUp", None) => {
            last
        }
        ("ArrowLeft" | "ArrowDown", Some(i)) => i.saturating_sub(1),
        ("ArrowRight" | "ArrowUp", Some(i)) => (i + 1).min(last),
        ("PageDown", Some(i)) => i.saturating_sub(page),
        ("PageUp", Some(i)) => (i + page).min(last),
        _ => return None,
    })
}

/// Once drawn, scrolls the least that shows the lane in hand (`.pic__lane`) inside
/// `container`, and the page the least that shows it too: a task stepped to by keyboard
/// is never below the fold of a long timeline.
pub fn show_lane(container: NodeRef<leptos::html::Div>) {
    request_animation_frame(move || {
        let lane = container
            .get_untracked()
            .and_then(|c| c.query_selector(".pic__lane").ok().flatten());
        if let Some(lane) = lane {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            lane.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

/// The index of the last of `times` (ascending) at or before `t`, else the first.
pub fn standing_at(times: impl Iterator<Item = i64>, t: i64) -> Option<usize> {
    let mut found = None;
    for (i, at) in times.enumerate() {
        if at > t {
            return found.or(Some(i));
        }
        found = Some(i);
    }
    found
}

/// Where the pointer of `ev` is across the svg it is over, in viewBox units.
pub fn pointer_x(ev: &web_sys::MouseEvent) -> Option<f64> {
    let svg = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let rect = svg.get_bounding_client_rect();
    (rect.width() > 0.0).then(|| (f64::from(ev.client_x()) - rect.left()) / rect.width() * WIDTH)
}

/// Moves `at` along `count()` points as the keys say.
pub fn on_keys(
    at: RwSignal<Option<usize>>,
    count: impl Fn() -> usize + 'static,
) -> impl Fn(web_sys::KeyboardEvent) + 'static {
    move |ev| {
        if let Some(i) = stepped(&ev.key(), at.get_untracked(), count()) {
            ev.prevent_default();
            at.set(Some(i));
        }
    }
}

/// Moves `at` to the point `index_at` the pointer's time.
pub fn on_pointer(
    at: RwSignal<Option<usize>>,
    frame: Memo<Frame>,
    index_at: impl Fn(i64) -> Option<usize> + 'static,
) -> impl Fn(web_sys::PointerEvent) + 'static {
    move |ev| {
        let t = pointer_x(&ev).map(|x| frame.with_untracked(|f| f.x.invert(x)));
        at.set(t.and_then(&index_at));
    }
}

/// The mark of the point at `(ms, value)`: a line up the plot and a dot on the series.
pub fn mark(f: &Frame, ms: i64, value: f64) -> impl IntoView {
    let (x, y) = (f.x.map(ms), f.y.map(value));
    view! {
        <line class="pic__cursor" x1=x x2=x y1=TOP y2=f.bottom()></line>
        <circle class="pic__dot" cx=x cy=y r=4></circle>
    }
}
