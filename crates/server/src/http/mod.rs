//! The HTTP API under `/api`: one handler module per resource, the `Caller` extractor, the
//! polled-read cache, and the single route table. Handlers parse and authorize, then run
//! one transaction over `store` and `flows`; nothing below this layer imports it.

mod accounts;
mod cache;
mod caller;
mod capabilities;
mod checkin_fields;
mod claim;
mod events;
mod github_pr;
mod mission_runs;
mod missions;
mod notes;
mod paging;
mod plans;
mod pr_report;
mod prs;
mod refusals;
mod runners;
mod state;
mod steering;
mod task_list;
mod task_notes;
mod task_reassign;
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
        .route("/missions/{id}/run", post(mission_runs::run))
        .route("/missions/{id}/runs", get(mission_runs::runs))
        .route("/missions/{id}/notes", get(notes::list).post(notes::create))
        .route("/missions/{id}/notes/{note_id}/reply", post(notes::reply))
        .route("/tasks", get(task_list::list).post(tasks::create))
        .route("/tasks/{id}/approve-plan", post(plans::approve))
        .route("/tasks/{id}/reject-plan", post(plans::reject))
        .route("/tasks/{id}/messages", get(steering::messages))
        .route("/tasks/{id}/notes", post(task_notes::create))
        .route("/tasks/{id}/reassign", post(task_reassign::reassign_task))
        .route(
            "/tasks/{id}",
            get(tasks::detail)
                .patch(tasks::update)
                .delete(tasks::delete),
        )
        .route("/events", get(events::stream))
        .route("/notes", get(notes::team_list))
        .route("/prs", get(prs::list))
        .route("/prs/{number}/checks", post(prs::record_check))
        .route("/prs/{number}/merge", post(prs::merge_endpoint))
        .route("/workers/claim", post(claim::claim))
        .route("/workers/heartbeat", post(runners::heartbeat))
        .route("/workers/{id}", get(runners::detail).patch(workers::update))
        .route("/workers/{id}/instruct", post(steering::instruct))
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
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed });
    guard(routes).with_state(AppState {
        db,
        cache: Default::default(),
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
