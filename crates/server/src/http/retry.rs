//! A write rolled back because it met another server's on Postgres (a deadlock or a
//! serialization failure, [`RolledBack`]) is sent through again here, after a short random
//! pause, up to [`ATTEMPTS`] times in all; only then does its caller see the 503. Nothing of
//! a rolled-back write was kept, and a handler's effects outside the database follow its
//! commit, so running the request again is safe. On SQLite one writer means writes never
//! meet, so nothing is buffered there.

use crate::body::{too_large, BODY_LIMIT};
use crate::error::RolledBack;
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::Rng;
use std::time::Duration;

/// How many times a write is run before its rollback is answered.
const ATTEMPTS: u32 = 4;

/// `postgres`: whether the server's database is Postgres.
pub async fn rolled_back_writes(
    State(postgres): State<bool>,
    request: Request,
    next: Next,
) -> Response {
    if !postgres || matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    // The declared length was checked before this; a body sent without one is held to the
    // same limit here.
    let Ok(body) = to_bytes(body, BODY_LIMIT).await else {
        return too_large().into_response();
    };
    let mut attempt = 1;
    loop {
        let request = Request::from_parts(parts.clone(), Body::from(body.clone()));
        let answer = next.clone().run(request).await;
        if attempt == ATTEMPTS || answer.extensions().get::<RolledBack>().is_none() {
            return answer;
        }
        metrics::counter!("buildd_db_retries_total").increment(1);
        // Apart again, the two writes that met are unlikely to meet a second time.
        let pause = rand::thread_rng().gen_range(2..=10) * u64::from(attempt);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        attempt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;
    use axum::http::{header, StatusCode};
    use axum::routing::post;
    use axum::Router;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::{Arc, Mutex};
    use tower::ServiceExt;

    /// A route that is rolled back the first `failures` times it runs, and records each body
    /// it was given; the answer to one request and those bodies.
    async fn send(postgres: bool, failures: u32) -> (StatusCode, Option<String>, Vec<String>) {
        let runs = Arc::new(AtomicU32::new(0));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let (seen, counted) = (bodies.clone(), runs.clone());
        let app = Router::new()
            .route(
                "/write",
                post(move |body: String| async move {
                    seen.lock().unwrap().push(body);
                    if counted.fetch_add(1, Ordering::SeqCst) < failures {
                        Err(ApiError::RolledBack)
                    } else {
                        Ok("written")
                    }
                }),
            )
            .layer(axum::middleware::from_fn_with_state(
                postgres,
                rolled_back_writes,
            ));
        let request = axum::http::Request::post("/write")
            .body(Body::from("{\"title\":\"Ship it\"}"))
            .unwrap();
        let answer = app.oneshot(request).await.unwrap();
        let retry_after = answer
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        let bodies = bodies.lock().unwrap().clone();
        (answer.status(), retry_after, bodies)
    }

    #[tokio::test]
    async fn a_rolled_back_write_is_run_again_with_the_same_body_until_it_holds() {
        let (status, _, bodies) = send(true, 2).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(bodies, vec!["{\"title\":\"Ship it\"}"; 3]);
    }

    #[tokio::test]
    async fn a_write_rolled_back_every_time_is_answered_503_after_its_last_attempt() {
        let (status, retry_after, bodies) = send(true, u32::MAX).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(retry_after.as_deref(), Some("1"));
        assert_eq!(bodies.len(), ATTEMPTS as usize);
    }

    #[tokio::test]
    async fn on_sqlite_a_request_runs_once() {
        let (status, _, bodies) = send(false, 1).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(bodies.len(), 1);
    }
}
