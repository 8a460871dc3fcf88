//! The Buildd API server: Buildd's REST API (same paths, fields, wrappers and status
//! codes) on axum and SQLite, serving the dashboard from the same origin.

pub mod auth;
pub mod body;
pub mod cache;
pub mod checkin_fields;
pub mod checkins;
pub mod claim;
pub mod db;
pub mod demo;
pub mod error;
pub mod keys;
pub mod leases;
pub mod mission_completion;
pub mod mission_runs;
pub mod mission_schedule;
pub mod mission_views;
pub mod missions;
pub mod notes;
pub mod organizer;
pub mod outcomes;
pub mod plans;
pub mod precompress;
pub mod prs;
pub mod rows;
pub mod scripted_worker;
pub mod state;
pub mod steering;
pub mod task_checks;
pub mod task_list;
pub mod task_memo;
pub mod tasks;
pub mod time;
pub mod workers;
pub mod workspaces;

use axum::http::{header, HeaderValue};
use axum::routing::{get, patch, post};
use axum::Router;
use error::ApiError;
use state::AppState;
use std::path::Path;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

pub use checkins::CheckinConfig;
pub use db::Db;

/// The API under `/api`, and the dashboard in `dist` (when given) for every other path, so
/// deep links such as `/missions/{id}` load the app.
pub fn app(db: Db, dist: Option<&Path>) -> Router {
    app_with(db, dist, CheckinConfig::default())
}

/// `app`, with check-ins tuned (their interval shows in mission details).
pub fn app_with(db: Db, dist: Option<&Path>, checkins: CheckinConfig) -> Router {
    let api = Router::new()
        .route("/missions", get(missions::list).post(missions::create))
        .route(
            "/missions/{id}",
            get(missions::detail)
                .patch(missions::update)
                .delete(missions::delete),
        )
        .route("/missions/{id}/run", post(organizer::run))
        .route("/missions/{id}/runs", get(mission_runs::runs))
        .route("/missions/{id}/notes", get(notes::list).post(notes::create))
        .route("/missions/{id}/notes/{note_id}/reply", post(notes::reply))
        .route("/tasks", get(task_list::list).post(tasks::create))
        .route("/tasks/{id}/approve-plan", post(plans::approve))
        .route("/tasks/{id}/reject-plan", post(plans::reject))
        .route("/tasks/{id}/messages", get(steering::messages))
        .route("/tasks/{id}", get(tasks::detail).patch(tasks::update))
        .route("/notes", get(notes::team_list))
        .route("/prs", get(prs::list))
        .route("/prs/{number}/checks", post(prs::record_check))
        .route("/prs/{number}/merge", post(prs::merge_endpoint))
        .route("/workers/claim", post(claim::claim))
        .route("/workers/{id}", patch(workers::update))
        .route("/workers/{id}/instruct", post(steering::instruct))
        .route(
            "/workspaces",
            get(workspaces::list).post(workspaces::create),
        )
        .route(
            "/workspaces/{id}",
            get(workspaces::detail).patch(workspaces::update),
        )
        .fallback(|| async { ApiError::NotFound("Not found") });
    let router = Router::new().nest("/api", api).with_state(AppState {
        db,
        cache: Default::default(),
        tasks: Default::default(),
        checkins,
    });
    match dist {
        Some(dist) => {
            precompress::precompress_in_background(dist);
            // Trunk's file names do not change with their content: always revalidate.
            let index = ServeFile::new(dist.join("index.html"))
                .precompressed_br()
                .precompressed_gzip();
            let files = ServeDir::new(dist)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(index);
            router.fallback_service(
                tower::ServiceBuilder::new()
                    .layer(SetResponseHeaderLayer::overriding(
                        header::CACHE_CONTROL,
                        HeaderValue::from_static("no-cache"),
                    ))
                    // The same path answers brotli, gzip or plain bytes.
                    .layer(SetResponseHeaderLayer::appending(
                        header::VARY,
                        HeaderValue::from_static("accept-encoding"),
                    ))
                    .service(files),
            )
        }
        None => router,
    }
}
