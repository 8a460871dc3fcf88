//! What a server run for months has around its routes, in either mode: `/healthz` and
//! `/readyz` for supervisors and load balancers, `/robots.txt`, `/metrics`, a request id on
//! every answer, one log line per request, Prometheus figures, a panicking handler answered
//! with a JSON 500 (the connection and the server go on), and the security headers.
//!
//! Sits above `http` and beside `mcp`: it uses `db`, `error` and `store::accounts` (the
//! admin check of `/metrics`), and only `lib` and `upstream` use it.

mod headers;
pub mod health;
pub mod metrics;
pub mod request_id;
mod route;
mod trace;

use crate::db::Db;
use crate::error::{no_route, ApiError};
use axum::body::Body;
use axum::middleware::from_fn;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, MethodRouter};
use axum::Router;
use std::any::Any;
use tower_http::catch_panic::{CatchPanicLayer, ResponseForPanic};

/// What `/readyz` checks.
pub enum Readiness {
    /// The database answers and holds this binary's migrations.
    Database(Db),
    /// Nothing: the process answering is enough (the upstream mode).
    Answering,
}

/// How [`around`] serves a router.
pub struct Around {
    pub readiness: Readiness,
    /// `/metrics` here for this database's admin keys; `None` when it is not on this
    /// listener (a listener of its own, or no database to check keys against).
    pub metrics_for_admins: Option<Db>,
    /// The request log and the figures; off only to measure what they cost.
    pub instrumented: bool,
}

/// A GET route whose other methods answer 405 in JSON.
fn only_get<H, T>(handler: H) -> MethodRouter
where
    H: axum::handler::Handler<T, ()>,
    T: 'static,
{
    get(handler).fallback(|| async { ApiError::MethodNotAllowed })
}

/// `router` with the operational routes and every layer.
pub fn around(router: Router, around: Around) -> Router {
    metrics::handle();
    let ready = match around.readiness {
        Readiness::Database(db) => Router::new()
            .route(
                "/readyz",
                get(health::readyz).fallback(|| async { ApiError::MethodNotAllowed }),
            )
            .with_state(db),
        Readiness::Answering => {
            Router::new().route("/readyz", only_get(health::ready_without_database))
        }
    };
    let scrape = match around.metrics_for_admins {
        Some(db) => Router::new()
            .route(
                "/metrics",
                get(metrics::scrape_for_admin).fallback(|| async { ApiError::MethodNotAllowed }),
            )
            .with_state(db),
        // Not the dashboard's page under a scraper's address.
        None => Router::new().route("/metrics", axum::routing::any(no_route)),
    };
    let router = router
        .route("/healthz", only_get(health::healthz))
        .route("/robots.txt", only_get(health::robots))
        .merge(ready)
        .merge(scrape);
    layers(router, around.instrumented)
}

/// `/metrics` alone, without a key: for a listener of its own (`--metrics-listen`), which
/// only the operator's network reaches; with the CPU time of `db`'s writes where given.
pub fn metrics_only(db: Option<Db>) -> Router {
    metrics::handle();
    let router = Router::new()
        .route(
            "/metrics",
            only_get(move || async move { metrics::render(db.as_ref()) }),
        )
        .fallback(no_route);
    layers(router, false)
}

/// Outermost first: security headers, request id, the log line, the figures, and panics
/// caught nearest the handler so the figures and the log see the 500.
fn layers(router: Router, instrumented: bool) -> Router {
    let router = router.layer(CatchPanicLayer::custom(PanicAnswer));
    let router = if instrumented {
        router.layer(from_fn(metrics::record)).layer(trace::layer())
    } else {
        router
    };
    router
        .layer(from_fn(request_id::assign))
        .layer(from_fn(headers::secure))
}

/// A panicking handler's answer: a JSON 500 (the request id is added around it), the panic
/// logged in the request's span.
#[derive(Clone, Copy)]
struct PanicAnswer;

impl ResponseForPanic for PanicAnswer {
    type ResponseBody = Body;

    fn response_for_panic(&mut self, panic: Box<dyn Any + Send + 'static>) -> Response {
        let what = panic
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        ApiError::Internal(format!("a handler panicked: {what}")).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serving::{serve, Limits};
    use std::time::Duration;
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

    /// One answer read off a kept-alive connection: its head and its body.
    async fn answer(reader: &mut BufReader<tokio::net::TcpStream>) -> (String, String) {
        let mut head = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).await.unwrap();
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line);
        }
        let length: usize = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|n| n.trim().parse().unwrap())
            })
            .expect("a content length");
        let mut body = vec![0; length];
        reader.read_exact(&mut body).await.unwrap();
        (head, String::from_utf8(body).unwrap())
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_json_500_and_the_connection_serves_on() {
        let routes = Router::new()
            .route(
                "/boom",
                get(|| async {
                    if true {
                        panic!("the handler gave up");
                    }
                    "never"
                }),
            )
            .route("/fine", get(|| async { "fine" }));
        let router = around(
            routes,
            Around {
                readiness: Readiness::Answering,
                metrics_for_admins: None,
                instrumented: true,
            },
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = Limits {
            header_read: Duration::from_secs(20),
            max_connections: 8,
            drain: Duration::from_millis(100),
        };
        tokio::spawn(serve(listener, router, limits, std::future::pending()));
        let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let mut reader = BufReader::new(stream);
        reader
            .get_mut()
            .write_all(b"GET /boom HTTP/1.1\r\nHost: x\r\nx-request-id: trace-42\r\n\r\n")
            .await
            .unwrap();
        let (head, body) = answer(&mut reader).await;
        assert!(head.starts_with("HTTP/1.1 500"), "{head}");
        assert!(head.contains("x-request-id: trace-42"), "{head}");
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"error": "Internal server error", "requestId": "trace-42"})
        );
        // The same connection answers the next request.
        reader
            .get_mut()
            .write_all(b"GET /fine HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let (head, body) = answer(&mut reader).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert_eq!(body, "fine");
        let rendered = metrics::handle().render();
        assert!(
            rendered.contains(
                "buildd_http_requests_total{route=\"/boom\",method=\"GET\",status=\"500\"}"
            ),
            "{rendered}"
        );
    }
}
