//! The upstream mode: this server serves the dashboard and forwards every `/api/*` request
//! to a real Buildd, so the page and its API share one origin (Buildd sends no CORS
//! headers, so a page on another origin cannot call it). No database: the upstream owns
//! every row. Uses only `error`, `dashboard_files` and `ops` (`/readyz` here checks
//! nothing, and `/metrics` is served only on a listener of its own: there are no keys here
//! to check); nothing imports it but `lib`.

mod client;
mod forward;
mod headers;

pub use client::{Upstream, UpstreamOptions};

use crate::ops::{Around, Readiness};
use axum::routing::any;
use axum::Router;
use std::path::Path;

/// `/api` and everything under it forwarded to `upstream`; the dashboard in `dist` (when
/// given) for every other path.
pub fn app(upstream: Upstream, dist: Option<&Path>) -> Router {
    let router = Router::new()
        .route("/api", any(forward::forward))
        .route("/api/", any(forward::forward))
        .route("/api/{*rest}", any(forward::forward))
        .with_state(upstream);
    let router = match dist {
        Some(dist) => crate::dashboard_files::serve(router, dist),
        None => router.fallback(crate::error::no_route),
    };
    let around = Around {
        readiness: Readiness::Answering,
        metrics_for_admins: None,
        instrumented: true,
    };
    crate::ops::around(router, around)
}
