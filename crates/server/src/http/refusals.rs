//! What every API answer shares: a request has a deadline, a body over the limit is refused
//! before it is read, and every refusal is `{"error": "…"}`, axum's own rejections of a
//! path or query included (their text names the parameter).

use crate::body::{too_large, BODY_LIMIT};
use crate::error::ApiError;
use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// How long one request may take before it is answered 503.
const DEADLINE: Duration = Duration::from_secs(30);

/// How much of a non-JSON refusal's text is kept as its message.
const MESSAGE_LIMIT: usize = 4096;

pub async fn guard(request: Request, next: Next) -> Response {
    within(DEADLINE, request, next).await
}

async fn within(deadline: Duration, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
        return too_large().into_response();
    }
    let response =
        match tokio::time::timeout(deadline, next.run(request)).await {
            Ok(response) => response,
            Err(_) => return ApiError::Detailed(
                StatusCode::SERVICE_UNAVAILABLE,
                serde_json::json!({
                    "error": format!("the request took longer than {} s", deadline.as_secs_f64())
                }),
            )
            .into_response(),
        };
    as_json_refusal(response).await
}

/// A refusal whose body is not JSON (an extractor's text, an empty 4xx) rewritten as
/// `{"error"}` with the same status; every other answer as it is.
async fn as_json_refusal(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = to_bytes(body, MESSAGE_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("Refused").to_string()
    } else {
        text
    };
    let body = serde_json::json!({ "error": message }).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_request_past_its_deadline_is_a_json_503() {
        let app = Router::new()
            .route(
                "/slow",
                get(|| async {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    "late"
                }),
            )
            .layer(axum::middleware::from_fn(|request, next| {
                within(Duration::from_millis(50), request, next)
            }));
        let request = axum::http::Request::get("/slow")
            .body(Body::empty())
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = to_bytes(response.into_body(), 1024).await.unwrap();
        let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(answer["error"]
            .as_str()
            .unwrap()
            .starts_with("the request took longer"));
    }
}
