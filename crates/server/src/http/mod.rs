//! The HTTP API under `/api`: a folder per feature (`missions/`, `tasks/`, `workers/`) and a
//! module per smaller resource, the `Caller` extractor, the polled-read cache, and the
//! single route table. Handlers parse and authorize, then run one transaction over `store`
//! and `flows`; nothing below this layer imports it.

mod accounts;
mod activity;
mod cache;
mod caller;
mod capabilities;
mod events;
mod github_pr;
mod insights;
mod keys;
mod missions;
mod notes;
mod prs;
mod refusals;
mod retry;
mod state;
mod tasks;
mod workers;
mod workspaces;

use crate::config::CheckinConfig;
use crate::db::Db;
use crate::error::ApiError;
use crate::flows::changes::ChangeFeed;
use axum::routing::{get, post};
use axum::Router;
use state::AppState;

use crate::error::no_route;

/// Every route of the API, relative to `/api`.
pub fn router(db: Db, checkins: CheckinConfig, changes: ChangeFeed) -> Router {
    let routes = Router::new()
        .route("/missions", get(missions::list).post(missions::create))
        .route("/missions/capabilities", get(capabilities::list))
        .route(
            "/missions/{id}",
            get(missions::detail)
                .patch(missions::update)
                .delete(missions::delete),
        )
        .route("/missions/{id}/run", post(missions::run))
        .route("/missions/{id}/runs", get(missions::runs))
        .route("/missions/{id}/notes", get(notes::list).post(notes::create))
        .route("/missions/{id}/notes/{note_id}/reply", post(notes::reply))
        .route("/tasks", get(tasks::list).post(tasks::create))
        .route("/tasks/waiting-input", get(tasks::waiting))
        .route("/tasks/{id}/approve-plan", post(tasks::approve_plan))
        .route("/tasks/{id}/reject-plan", post(tasks::reject_plan))
        .route("/tasks/{id}/messages", get(tasks::messages))
        .route("/tasks/{id}/notes", post(tasks::create_note))
        .route("/tasks/{id}/reassign", post(tasks::reassign))
        .route("/tasks/{id}/start", post(tasks::start))
        .route(
            "/tasks/{id}",
            get(tasks::detail)
                .patch(tasks::update)
                .delete(tasks::delete),
        )
        .route("/events", get(events::stream))
        .route("/activity", get(activity::list))
        .route("/insights", get(insights::read))
        .route("/insights/prs", get(insights::prs))
        .route("/notes", get(notes::team_list))
        .route("/prs", get(prs::list))
        .route("/prs/{number}/checks", post(prs::record_check))
        .route("/prs/{number}/merge", post(prs::merge_endpoint))
        .route("/workers/claim", post(workers::claim))
        .route("/workers/heartbeat", post(workers::heartbeat))
        .route("/workers/{id}", get(workers::detail).patch(workers::update))
        .route("/workers/{id}/instruct", post(workers::instruct))
        .route("/workers/{id}/respond", post(workers::respond))
        .route(
            "/workspaces",
            get(workspaces::list).post(workspaces::create),
        )
        .route(
            "/workspaces/{id}",
            get(workspaces::detail).patch(workspaces::update),
        )
        .route("/workspaces/{id}/config", get(workspaces::config))
        .route("/accounts/me", get(accounts::me))
        .route("/github/pr", post(github_pr::open))
        .fallback(no_route)
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(axum::middleware::from_fn_with_state(
            db.is_postgres(),
            retry::rolled_back_writes,
        ));
    guard(routes).with_state(AppState {
        db,
        cache: Default::default(),
        keys: Default::default(),
        tasks: Default::default(),
        checkins,
        changes,
    })
}

/// The bounds every API route has: the body limit, the request deadline, and refusals in
/// JSON. Routes served beside this router (the MCP endpoint) take them too.
pub fn guard<S: Clone + Send + Sync + 'static>(routes: Router<S>) -> Router<S> {
    routes
        .layer(axum::middleware::from_fn(refusals::guard))
        .layer(axum::extract::DefaultBodyLimit::max(
            crate::body::BODY_LIMIT,
        ))
}
