//! What the API behind this tab offers beyond plain Buildd: read once per connection from
//! `GET /api/missions/capabilities` (Buildd answers it without a key; a failed or missing
//! answer means plain Buildd, nothing extra), and the endpoints that answered 404 or 405
//! while the page is open. Panels ask here before they poll an optional endpoint, so what
//! the server lacks is neither polled nor shown as an error.

use crate::api::{self, ApiError};
use crate::state::connection::use_connection;
use buildd_core::capabilities::{Capabilities, Extra};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;

#[derive(Clone, Copy)]
pub struct Offered {
    /// `None` until the answer for the current connection is in.
    caps: RwSignal<Option<Capabilities>>,
    /// A handful at most: a list, not a set.
    absent: RwSignal<Vec<Extra>>,
}

impl Offered {
    /// Whether the capabilities of the current connection are known (tracked).
    pub fn known(&self) -> bool {
        self.caps.with(Option::is_some)
    }

    /// Whether `extra` may be asked for: listed, and not found missing since (tracked).
    pub fn has(&self, extra: Extra) -> bool {
        self.caps
            .with(|c| c.as_ref().is_some_and(|c| c.offers(extra)))
            && !self.absent.with(|a| a.contains(&extra))
    }

    /// Resolves once the capabilities of the current connection are known. A future that
    /// ends, never a pending one: a resource waits for its future before it reads again.
    pub async fn known_soon(self) {
        while self.caps.with_untracked(Option::is_none) {
            gloo_timers::future::TimeoutFuture::new(25).await;
        }
    }

    pub fn has_untracked(&self, extra: Extra) -> bool {
        self.caps
            .with_untracked(|c| c.as_ref().is_some_and(|c| c.offers(extra)))
            && !self.absent.with_untracked(|a| a.contains(&extra))
    }

    /// Marks `extra` missing for the tab: it answered 404 or 405.
    pub fn remember_missing(&self, extra: Extra) {
        if !self.absent.with_untracked(|a| a.contains(&extra)) {
            self.absent.update(|a| a.push(extra));
        }
    }

    /// `request` when the server offers `extra`, else `Ok(None)` without asking. An answer
    /// of 404 or 405 is remembered for the tab and reads as `Ok(None)` from then on; use it
    /// for endpoints whose path names no resource of their own (a team-wide list).
    pub fn read<T>(
        self,
        extra: Extra,
        request: impl Future<Output = Result<T, ApiError>> + 'static,
    ) -> impl Future<Output = Result<Option<T>, ApiError>> + 'static {
        self.read_where(extra, request, |e| {
            matches!(e, ApiError::NotFound(_) | ApiError::Status(405, _))
        })
    }

    /// [`Offered::read`] for an endpoint under a resource (`/api/missions/{id}/runs`): a
    /// 404 may mean the resource is gone, so only a 405 marks the endpoint missing.
    pub fn read_by_id<T>(
        self,
        extra: Extra,
        request: impl Future<Output = Result<T, ApiError>> + 'static,
    ) -> impl Future<Output = Result<Option<T>, ApiError>> + 'static {
        self.read_where(extra, request, |e| matches!(e, ApiError::Status(405, _)))
    }

    fn read_where<T>(
        self,
        extra: Extra,
        request: impl Future<Output = Result<T, ApiError>> + 'static,
        missing: fn(&ApiError) -> bool,
    ) -> impl Future<Output = Result<Option<T>, ApiError>> + 'static {
        let ask = self.has_untracked(extra);
        async move {
            if !ask {
                return Ok(None);
            }
            match request.await {
                Ok(answer) => Ok(Some(answer)),
                Err(e) if missing(&e) => {
                    self.remember_missing(extra);
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        }
    }
}

/// Reads the capabilities again whenever the connection changes, and provides them.
pub fn provide_capabilities() -> Offered {
    let connection = use_connection();
    let offered = Offered {
        caps: RwSignal::new(None),
        absent: RwSignal::new(Vec::new()),
    };
    // Counts connections, so a late answer for an earlier one is dropped.
    let generation = StoredValue::new(0u32);
    Effect::new(move |_| {
        let base = connection.get().map(|c| c.base);
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        offered.caps.set(None);
        offered.absent.set(Vec::new());
        if let Some(base) = base {
            spawn_local(async move {
                let caps = api::capabilities(&base).await.unwrap_or_default();
                if generation.get_value() == mine {
                    offered.caps.set(Some(caps));
                }
            });
        }
    });
    provide_context(offered);
    offered
}

pub fn use_capabilities() -> Offered {
    expect_context::<Offered>()
}
