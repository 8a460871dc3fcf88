//! Polled reads: a panel's data kept fresh. While the change stream is open (`live`), a
//! read runs again when the stream says the team's data moved; otherwise on a pace that
//! slows while nothing changes (buildd-core's `polling`). Also at once when the tab comes
//! back or a person acts, and never while the tab is hidden. Reads are conditional: the
//! server's `ETag` lets the browser revalidate, so an unchanged answer costs a 304.
//!
//! A read is a `LocalResource` refetched on those signals, and what it read is a memo that
//! changes only when the answer does: a refresh that finds nothing new re-renders nothing.
//! `<Polled>` (components/shared) shows one: Loading, then its view, or the ErrorPanel.
//!
//! Why not `<Transition>` and `<ErrorBoundary>`: a refetch never suspends here (the memo
//! keeps the last answer until a new one is in), so there is nothing for a transition to
//! hold back; and a failure is data, not a thrown view: a server without an optional
//! endpoint answers `Ok(None)` rather than an error, and Retry reads that one read again
//! rather than resetting a boundary.

use crate::api::ApiError;
use crate::state::live::{page_visible, use_live};
use buildd_core::polling::{Pace, TICK};
use leptos::ev;
use leptos::prelude::*;
use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A reading of any type. Every read's resource holds one, so the resource's code is in
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

/// What a polled read has read, and a way to read again now.
pub struct PolledRead<T: Send + Sync + 'static> {
    /// `None` until the first answer, then the data or why the last read failed. Shared, not
    /// copied: a reading is held once however many views show it.
    pub value: Memo<Option<Result<Arc<T>, ApiError>>>,
    /// Reads again at once: a panel's Retry, and what follows a person's action.
    pub reload: Callback<()>,
}

impl<T: Send + Sync> Clone for PolledRead<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync> Copy for PolledRead<T> {}

impl<T: Send + Sync + 'static> PolledRead<T> {
    /// `f` of the data while there is some (tracked): `None` while loading or failed.
    pub fn with_data<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        self.value
            .with(|v| v.as_ref().and_then(|r| r.as_ref().ok()).map(|t| f(t)))
    }

    /// The data while there is some (tracked), shared.
    pub fn data(&self) -> Option<Arc<T>> {
        self.value.with(|v| v.as_ref()?.as_ref().ok().cloned())
    }

    /// Whether the first answer is in, well or not (tracked).
    pub fn answered(&self) -> bool {
        self.value.with(Option::is_some)
    }
}

/// Reads `fetch` now and again as the module says; the value changes only when the answer
/// does, and a change brings the quick pace back.
pub fn polled<T, Fut>(fetch: impl Fn() -> Fut + 'static) -> PolledRead<T>
where
    T: PartialEq + Send + Sync + 'static,
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
    let value = Memo::new(move |_| {
        resource.get().and_then(|reading| match reading {
            Ok(t) => t.downcast::<T>().ok().map(Ok),
            Err(e) => Some(Err(e)),
        })
    });
    Effect::new(move |_| {
        value.track();
        pace.update_value(Pace::changed);
    });
    let reload = Callback::new(move |_| {
        pace.update_value(Pace::changed);
        resource.refetch();
    });
    PolledRead { value, reload }
}
