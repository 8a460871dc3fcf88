//! Keeps a panel's data fresh: refetches every few seconds while the tab is visible, and
//! at once when the tab comes back. Only a change re-renders, so a refresh never flickers
//! or disturbs what a person is doing on the page.

use crate::api::ApiError;
use leptos::ev;
use leptos::prelude::*;
use std::future::Future;
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

/// What a panel shows: nothing yet (loading), the data, or why it failed.
pub type Polled<T> = Memo<Option<Result<T, ApiError>>>;

/// Reads `fetch` now and every few seconds while visible; the memo changes only when the
/// answer does. The callback reloads at once (the panels' Retry).
pub fn polled<T, Fut>(fetch: impl Fn() -> Fut + 'static) -> (Polled<T>, Callback<()>)
where
    T: Clone + PartialEq + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let resource = LocalResource::new(fetch);
    refresh_while_visible(move || resource.refetch());
    let data = Memo::new(move |_| resource.get());
    (data, Callback::new(move |_| resource.refetch()))
}
