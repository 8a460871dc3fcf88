//! Keeps a panel's data fresh: refetches every few seconds while the tab is visible, and
//! at once when the tab comes back.

use leptos::ev;
use leptos::prelude::*;
use std::time::Duration;

pub const REFRESH_EVERY: Duration = Duration::from_secs(5);

fn visible() -> bool {
    document().visibility_state() == web_sys::VisibilityState::Visible
}

/// Calls `refetch` every [`REFRESH_EVERY`] while the page is visible.
pub fn refresh_while_visible(refetch: impl Fn() + Clone + 'static) {
    let tick = refetch.clone();
    let interval = set_interval_with_handle(
        move || {
            if visible() {
                tick();
            }
        },
        REFRESH_EVERY,
    )
    .ok();
    let on_show = window_event_listener(ev::visibilitychange, move |_| {
        if visible() {
            refetch();
        }
    });
    on_cleanup(move || {
        if let Some(handle) = interval {
            handle.clear();
        }
        on_show.remove();
    });
}
