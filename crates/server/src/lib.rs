//! The Buildd API server: Buildd's REST API (same paths, fields, wrappers and status
//! codes) on axum and SQLite, serving the dashboard from the same origin.
//!
//! Layers, each importing only those below it: `db`, `error`, `body`, `time`, `config` →
//! `store` (rows and lookups) → `flows` (workflows across resources) → `http` (handlers and
//! the route table) → `mcp` (the MCP endpoint, calling the API as a client). `dashboard_files` serves the built dashboard; `demo` seeds demo data
//! and runs the scripted worker over HTTP. `upstream` is the other way to serve: the
//! dashboard here, the API forwarded to a real Buildd. `serving` runs either on a socket
//! with the bounds a server facing the network needs.

mod body;
mod config;
pub mod dashboard_files;
pub mod db;
pub mod demo;
mod error;
mod flows;
mod http;
mod mcp;
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

use axum::routing::any;
use axum::Router;
use std::path::Path;

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
    let api = http::router(db, checkins, changes);
    let router = Router::new()
        .merge(http::guard(mcp::router(api.clone())))
        .nest("/api", api)
        // `nest` leaves `/api/` itself to the outer router, which would serve the dashboard.
        .route("/api/", any(error::no_route));
    match dist {
        Some(dist) => dashboard_files::serve(router, dist),
        None => router.fallback(error::no_route),
    }
}
