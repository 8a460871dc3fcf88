//! Every refusal is `{"error"}` naming what is wrong, axum's own rejections included, and a
//! body over the limit is refused (413) before it is read.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::TestApp;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// Sends and returns the status and the error message, asserting the body is JSON.
async fn refusal(app: &TestApp, request: Request<Body>) -> (StatusCode, String) {
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    assert!(
        kind.starts_with("application/json"),
        "{status} {kind}: {bytes:?}"
    );
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    (status, body["error"].as_str().unwrap().to_string())
}

fn with_key(method: &str, uri: &str, key: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("Authorization", format!("Bearer {key}"))
}

#[tokio::test]
async fn path_parameters_that_do_not_parse_are_json_naming_them() {
    let app = TestApp::new().await;
    let (status, error) = refusal(
        &app,
        with_key("POST", "/api/prs/abc/checks", &app.admin)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error.contains("abc"), "{error}");
    let (status, error) = refusal(
        &app,
        with_key("GET", "/api/missions/%FF%FE", &app.admin)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error.contains("id"), "{error}");
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_declared_or_not() {
    let app = TestApp::new().await;
    let big = format!("{{\"title\": \"{}\"}}", "x".repeat(3 << 20));
    let declared = with_key("POST", "/api/missions", &app.admin)
        .header("Content-Type", "application/json")
        .header("Content-Length", big.len().to_string())
        .body(Body::from(big.clone()))
        .unwrap();
    let (status, error) = refusal(&app, declared).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error.starts_with("body:"), "{error}");
    // Streamed without a length: refused once the limit is crossed.
    let stream = chunked(big);
    let streamed = with_key("POST", "/api/missions", &app.admin)
        .header("Content-Type", "application/json")
        .body(stream)
        .unwrap();
    let (status, _) = refusal(&app, streamed).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // An endpoint that takes no body refuses a large one before reading it.
    let mission = app.mission("Run me").await;
    let run = with_key("POST", &format!("/api/missions/{mission}/run"), &app.admin)
        .header("Content-Length", (20u64 << 20).to_string())
        .body(Body::empty())
        .unwrap();
    let (status, _) = refusal(&app, run).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, missions) = app.call("GET", "/api/missions", &app.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        missions["missions"].as_array().unwrap().len(),
        1,
        "nothing written"
    );
}

/// A body with no declared length, as a chunked upload arrives.
fn chunked(text: String) -> Body {
    let pieces = text
        .into_bytes()
        .chunks(64 << 10)
        .map(axum::body::Bytes::copy_from_slice)
        .collect();
    Body::new(Pieces(pieces))
}

/// A body sent a piece at a time, its length unknown.
struct Pieces(std::collections::VecDeque<axum::body::Bytes>);

impl hyper::body::Body for Pieces {
    type Data = axum::body::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        std::task::Poll::Ready(self.0.pop_front().map(|p| Ok(hyper::body::Frame::data(p))))
    }
}

#[tokio::test]
async fn free_text_over_its_limit_is_refused_naming_the_field() {
    let app = TestApp::new().await;
    let mission = app.mission("Limits").await;
    let long = |n: usize| "x".repeat(n);
    let cases = [
        (
            "POST",
            "/api/missions".to_string(),
            serde_json::json!({"title": long(501)}),
            "title",
        ),
        (
            "PATCH",
            format!("/api/missions/{mission}"),
            serde_json::json!({"description": long(100_001)}),
            "description",
        ),
        (
            "POST",
            "/api/workspaces".to_string(),
            serde_json::json!({"name": long(501), "repo": "acme/x"}),
            "name",
        ),
        (
            "POST",
            "/api/workers/claim".to_string(),
            serde_json::json!({"runner": long(501)}),
            "runner",
        ),
    ];
    for (method, path, body, field) in cases {
        let key = if path.contains("claim") {
            &app.worker
        } else {
            &app.admin
        };
        let (status, answer) = app.call(method, &path, key, Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("{field} must be at most")),
            "{error}"
        );
    }
    // At the limit, taken.
    let (status, _) = app
        .call(
            "POST",
            "/api/missions",
            &app.admin,
            Some(serde_json::json!({"title": long(500)})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
}
