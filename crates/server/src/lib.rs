//! The Buildd API server: Buildd's REST API (same paths, fields, wrappers and status
//! codes) on axum and SQLite, serving the dashboard from the same origin.
//!
//! Layers, each importing only those below it: `db`, `error`, `body`, `time`, `config` →
//! `store` (rows and lookups) → `flows` (workflows across resources) → `http` (handlers and
//! the route table) → `mcp` (the MCP endpoint, calling the API as a client). `dashboard_files` serves the built dashboard; `demo` seeds demo data
//! and runs the scripted worker over HTTP. `upstream` is the other way to serve: the
//! dashboard here, the API forwarded to a real Buildd. `ops` puts health, metrics, request
//! ids, the request log and the security headers around either. `serving` runs either on a
//! socket with the bounds a server facing the network needs.

mod body;
mod config;
pub mod dashboard_files;
pub mod db;
pub mod demo;
mod error;
mod flows;
mod http;
mod mcp;
mod ops;
pub mod serving;
mod store;
mod time;
pub mod upstream;

pub use config::CheckinConfig;
pub use db::Db;
/// What the change streams (`GET /api/events`) watch.
pub use flows::changes::ChangeFeed;
/// The periodic chores, each callable at a given time.
pub use flows::scheduler;
/// Teams and API keys.
pub use store::accounts as keys;

use axum::middleware::from_fn;
use axum::routing::any;
use axum::Router;
use ops::{Around, Readiness};
use std::path::Path;

/// How [`app_with_options`] serves, besides the API.
#[derive(Clone)]
pub struct AppOptions {
    pub checkins: CheckinConfig,
    /// What the change streams watch; a new feed when `None`.
    pub changes: Option<ChangeFeed>,
    /// `GET /metrics` on this router, for admin keys; off when it is served on a listener of
    /// its own (`--metrics-listen`).
    pub metrics_for_admins: bool,
    /// The request log and the Prometheus figures; off only to measure what they cost.
    pub instrumented: bool,
}

impl Default for AppOptions {
    fn default() -> Self {
        Self {
            checkins: CheckinConfig::default(),
            changes: None,
            metrics_for_admins: true,
            instrumented: true,
        }
    }
}

/// The API under `/api`, and the dashboard in `dist` (when given) for every other path.
pub fn app(db: Db, dist: Option<&Path>) -> Router {
    app_with(db, dist, CheckinConfig::default())
}

/// `app`, with check-ins tuned (their interval shows in mission details).
pub fn app_with(db: Db, dist: Option<&Path>, checkins: CheckinConfig) -> Router {
    let changes = ChangeFeed::new(db.clone());
    app_with_changes(db, dist, checkins, changes)
}

/// `app_with`, its change streams fed by `changes` (closing it ends them, as at shutdown).
pub fn app_with_changes(
    db: Db,
    dist: Option<&Path>,
    checkins: CheckinConfig,
    changes: ChangeFeed,
) -> Router {
    let options = AppOptions {
        checkins,
        changes: Some(changes),
        ..AppOptions::default()
    };
    app_with_options(db, dist, options)
}

/// The API, the dashboard in `dist` (when given), and what a long-running server needs
/// around them: `/healthz`, `/readyz`, `/metrics`, `/robots.txt`, request ids, the request
/// log and the security headers.
pub fn app_with_options(db: Db, dist: Option<&Path>, options: AppOptions) -> Router {
    let changes = options
        .changes
        .unwrap_or_else(|| ChangeFeed::new(db.clone()));
    let mut api = http::router(db.clone(), options.checkins, changes);
    if options.instrumented {
        api = api.layer(from_fn(ops::metrics::count_claims));
    }
    let router = Router::new()
        .merge(http::guard(mcp::router(api.clone())))
        .nest("/api", api)
        // `nest` leaves `/api/` itself to the outer router, which would serve the dashboard.
        .route("/api/", any(error::no_route));
    let router = match dist {
        Some(dist) => dashboard_files::serve(router, dist),
        None => router.fallback(error::no_route),
    };
    let around = Around {
        readiness: Readiness::Database(db.clone()),
        metrics_for_admins: options.metrics_for_admins.then_some(db),
        instrumented: options.instrumented,
    };
    ops::around(router, around)
}

/// `GET /metrics` alone, without a key, for a listener of its own that only the operator's
/// network reaches (`--metrics-listen`); `db` is the server's database, none in the upstream
/// mode.
pub fn metrics_router(db: Option<Db>) -> Router {
    ops::metrics_only(db)
}
