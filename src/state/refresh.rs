//! Keeps a panel's data fresh: while the change stream is open (`live`), it reads again when
//! the stream says the team's data moved; otherwise on a pace that slows while nothing
//! changes (buildd-core's `polling`). Also at once when the tab comes back or a person
//! acts, and never while the tab is hidden. Only a change re-renders, so a refresh never
//! flickers or disturbs what a person is doing on the page. Reads are conditional: the
//! server's `ETag` lets the browser revalidate, so an unchanged answer costs a 304.

use crate::api::ApiError;
use crate::state::live::{page_visible, use_live};
use buildd_core::polling::{Pace, TICK};
use leptos::ev;
use leptos::prelude::*;
use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A reading of any type. Every panel's resource holds one, so the resource's code is in
/// the app once, not once per panel.
type Reading = Result<Arc<dyn Any + Send + Sync>, ApiError>;

type Fetch = Box<dyn Fn() -> Pin<Box<dyn Future<Output = Reading>>>>;

fn resource(fetch: Fetch) -> LocalResource<Reading> {
    LocalResource::new(fetch)
}

/// Reads `resource` again when the change stream reports a change, or (while it is
/// closed) when `pace` says a read is due, while the page is visible; and at once when it
/// becomes visible again.
fn refresh_while_visible(pace: StoredValue<Pace>, resource: LocalResource<Reading>) {
    let live = use_live();
    let interval = set_interval_with_handle(
        move || {
            let streamed = live.is_some_and(|l| l.is_open_untracked());
            if page_visible() && !streamed && pace.try_update_value(|p| p.tick()).unwrap_or(false) {
                resource.refetch();
            }
        },
        TICK,
    )
    .ok();
    if let Some(live) = live {
        Effect::new(move |heard: Option<u64>| {
            let now = live.changes();
            if heard.is_some() && page_visible() {
                resource.refetch();
            }
            now
        });
    }
    let on_show = window_event_listener(ev::visibilitychange, move |_| {
        if page_visible() {
            pace.update_value(Pace::changed);
            resource.refetch();
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

/// Reads `fetch` now and again on the polling pace while visible; the memo changes only
/// when the answer does, and a change brings the quick pace back. The callback reloads at
/// once (the panels' Retry, and what follows a person's action).
pub fn polled<T, Fut>(fetch: impl Fn() -> Fut + 'static) -> (Polled<T>, Callback<()>)
where
    T: Clone + PartialEq + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let resource = resource(Box::new(move || {
        let read = fetch();
        Box::pin(async move {
            read.await
                .map(|t| Arc::new(t) as Arc<dyn Any + Send + Sync>)
        })
    }));
    let pace = StoredValue::new(Pace::default());
    refresh_while_visible(pace, resource);
    let data = Memo::new(move |_| {
        resource.get().and_then(|reading| match reading {
            Ok(t) => t.downcast_ref::<T>().cloned().map(Ok),
            Err(e) => Some(Err(e)),
        })
    });
    Effect::new(move |_| {
        data.track();
        pace.update_value(Pace::changed);
    });
    let reload = Callback::new(move |_| {
        pace.update_value(Pace::changed);
        resource.refetch();
    });
    (data, reload)
}
