//! One forwarded request: method, path and query as they came, the allowed headers, the
//! body streamed both ways. The upstream's status and body come back unchanged; an upstream
//! that cannot be reached answers 502, one that is too slow 504, each naming it.

use super::client::Upstream;
use super::headers::{towards_browser, towards_upstream};
use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::error::Error as _;

pub async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path_and_query = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let mut builder = axum::http::Request::builder()
        .method(parts.method.clone())
        .uri(upstream.url_of(path_and_query));
    if let Some(headers) = builder.headers_mut() {
        *headers = towards_upstream(&parts.headers);
    }
    let outgoing = match builder.body(body) {
        Ok(outgoing) => outgoing,
        Err(e) => return ApiError::bad(format!("path: cannot be forwarded: {e}")).into_response(),
    };
    let started = std::time::Instant::now();
    let answer = tokio::time::timeout(
        upstream.answer_timeout(),
        upstream.client().request(outgoing),
    )
    .await;
    // The path only: keys never travel in it, and the query might hold a person's text.
    let path = parts.uri.path();
    match answer {
        Ok(Ok(response)) => {
            tracing::debug!(
                "{} {path} → {} in {:?}",
                parts.method,
                response.status(),
                started.elapsed()
            );
            let (mut back, incoming) = response.into_parts();
            back.headers = towards_browser(&back.headers);
            Response::from_parts(back, Body::new(incoming))
        }
        Ok(Err(e)) => {
            tracing::warn!("{} {path}: the upstream failed: {e}", parts.method);
            let cause = e
                .source()
                .map(|s| s.to_string())
                .unwrap_or_else(|| e.to_string());
            gateway_error(
                StatusCode::BAD_GATEWAY,
                format!(
                    "The upstream Buildd at {} could not be reached: {cause}",
                    upstream.name()
                ),
            )
        }
        Err(_) => {
            tracing::warn!(
                "{} {path}: the upstream did not answer in time",
                parts.method
            );
            gateway_error(
                StatusCode::GATEWAY_TIMEOUT,
                format!(
                    "The upstream Buildd at {} did not answer within {} s",
                    upstream.name(),
                    upstream.answer_timeout().as_secs_f64()
                ),
            )
        }
    }
}

fn gateway_error(status: StatusCode, message: String) -> Response {
    ApiError::Detailed(status, serde_json::json!({ "error": message })).into_response()
}
