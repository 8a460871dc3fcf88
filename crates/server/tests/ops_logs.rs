//! The request log, in a test binary of its own: a log subscriber set for one test sees
//! events only reliably when no other test registers callsites at the same time.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

async fn status_of(router: &axum::Router, request: Request<Body>) -> StatusCode {
    router.clone().oneshot(request).await.unwrap().status()
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

/// A `Write` into a shared buffer, for a log subscriber.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

#[tokio::test]
async fn a_request_logs_one_line_with_its_path_and_without_its_key_or_query() {
    let app = TestApp::new().await;
    let mission = app.mission("Quiet logs").await;
    let log = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(log.clone())
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .finish();
    let guard = tracing::subscriber::set_default(subscriber);
    let path = format!("/api/missions/{mission}?view=secret-query-value");
    let got = status_of(
        &app.router,
        Request::get(&path)
            .header("Authorization", format!("Bearer {}", app.admin))
            .header("x-request-id", "req-1234")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(got, StatusCode::OK);
    // Probes are not logged at info.
    status_of(&app.router, get("/healthz")).await;
    status_of(&app.router, get("/readyz")).await;
    drop(guard);
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let line = lines[0];
    for part in [
        "INFO",
        "method=GET",
        "route=/api/missions/{id}",
        &format!("path=/api/missions/{mission}"),
        "id=req-1234",
        "status=200",
        "latency_ms=",
    ] {
        assert!(line.contains(part), "{part} in {line}");
    }
    for secret in [app.admin.as_str(), "secret-query-value"] {
        assert!(!line.contains(secret), "{secret} in {line}");
    }
}
