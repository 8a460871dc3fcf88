//! One log line per answered request: method, route (the route's template, which groups
//! lines), path (what was asked: ids, never the query), status, latency and request id.
//! Never a header, a query value or a body, so no key reaches a log. Probes and scrapes
//! (`/healthz`, `/readyz`, `/metrics`) log at debug: a load balancer asking every few
//! seconds would bury the rest.

use super::request_id::RequestId;
use super::route::route_of;
use axum::extract::Request;
use axum::response::Response;
use std::time::Duration;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::{MakeSpan, OnResponse, TraceLayer};
use tracing::{Level, Span};

/// Routes asked often by machines, logged at debug.
const QUIET: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

#[derive(Clone, Copy)]
pub struct RequestSpan;

impl MakeSpan<axum::body::Body> for RequestSpan {
    fn make_span(&mut self, request: &Request) -> Span {
        let route = route_of(request);
        let id = request
            .extensions()
            .get::<RequestId>()
            .map(RequestId::as_str)
            .unwrap_or_default();
        let method = request.method().as_str();
        let path = request.uri().path();
        if QUIET.contains(&route) {
            tracing::debug_span!("request", method = %method, route = %route, path = %path, id = %id)
        } else {
            tracing::info_span!("request", method = %method, route = %route, path = %path, id = %id)
        }
    }
}

#[derive(Clone, Copy)]
pub struct Answered;

impl<B> OnResponse<B> for Answered {
    fn on_response(self, response: &Response<B>, latency: Duration, span: &Span) {
        let status = response.status().as_u16();
        let latency_ms = latency.as_secs_f64() * 1000.0;
        // A disabled span has no metadata: whatever it was, its line is not wanted at info.
        if span.metadata().is_some_and(|m| *m.level() == Level::INFO) {
            tracing::info!(status, latency_ms, "answered");
        } else {
            tracing::debug!(status, latency_ms, "answered");
        }
    }
}

/// The request log: the span and its one line; nothing when a request starts, and no second
/// line for a 5xx (the answer's line has its status).
pub fn layer(
) -> TraceLayer<SharedClassifier<ServerErrorsAsFailures>, RequestSpan, (), Answered, (), (), ()> {
    TraceLayer::new_for_http()
        .make_span_with(RequestSpan)
        .on_request(())
        .on_response(Answered)
        .on_body_chunk(())
        .on_eos(())
        .on_failure(())
}
