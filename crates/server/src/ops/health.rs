//! `/healthz`: the process answers (no key, no database), for a supervisor deciding on a
//! restart. `/readyz`: the database answers a query and holds this binary's migrations, for
//! a load balancer deciding where to send traffic. `/robots.txt`: nothing here is for
//! crawlers. None is ever cached.

use crate::db::Db;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

fn uncached(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

pub async fn healthz() -> Response {
    uncached(Json(json!({"status": "ok"})).into_response())
}

pub async fn readyz(State(db): State<Db>) -> Response {
    uncached(match db.ready().await {
        Ok(()) => Json(json!({"status": "ready"})).into_response(),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"error": format!("not ready: {why}")})),
        )
            .into_response(),
    })
}

/// The upstream mode's readiness: it has no database, and an upstream that is down is not
/// something a restart or another replica of this process would fix (its requests answer
/// 502 naming it), so it is ready once it answers.
pub async fn ready_without_database() -> Response {
    uncached(Json(json!({"status": "ready"})).into_response())
}

pub async fn robots() -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "User-agent: *\nDisallow: /\n",
    )
        .into_response()
}
