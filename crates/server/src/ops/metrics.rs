//! Counters and histograms in Prometheus' text format: requests by route, method and status
//! and their latency, open change streams, claims, organizer runs started, how long writes
//! wait for the writer and the CPU time they use (`db`). One recorder per process, however
//! many routers are built (the tests build many); it is installed with the first router, so
//! nothing recorded after is lost.

use super::route::route_of;
use crate::db::Db;
use crate::error::ApiError;
use crate::store::accounts::account_by_key;
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use buildd_core::AccountLevel;
use futures_util::StreamExt;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0,
];

/// How often recorded latencies are folded into their buckets (so memory stays bounded
/// between scrapes, or when nothing scrapes).
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The largest claim answer counted; Buildd's answers with 20 tasks are far below it.
const CLAIM_BODY_LIMIT: usize = 8 * 1024 * 1024;

/// The process's recorder, installed on first use.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("buckets are given")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed: /metrics stays empty");
        }
        describe();
        let upkeep = handle.clone();
        std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || loop {
                std::thread::sleep(UPKEEP_EVERY);
                upkeep.run_upkeep();
            })
            .expect("a thread for metrics upkeep");
        handle
    })
}

/// The current figures, as Prometheus reads them, with the CPU time `db`'s writes have used
/// read now.
pub fn render(db: Option<&Db>) -> Response {
    // Installed before the figures read now are set, or the first scrape would lose them.
    let handle = handle();
    if let Some(cpu) = db.and_then(Db::write_cpu_time) {
        metrics::gauge!("buildd_db_write_cpu_seconds").set(cpu.as_secs_f64());
    }
    if let Some(db) = db {
        metrics::gauge!("buildd_db_writes_waiting").set(db.write_queue().0 as f64);
    }
    if let Some((open, idle)) = db.and_then(Db::pool_connections) {
        let busy = (open as usize).saturating_sub(idle);
        metrics::gauge!("buildd_db_pool_connections", "state" => "busy").set(busy as f64);
        metrics::gauge!("buildd_db_pool_connections", "state" => "idle").set(idle as f64);
    }
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        handle.render(),
    )
        .into_response()
}

/// `GET /metrics` on the public listener: for an admin key only.
pub async fn scrape_for_admin(State(db): State<Db>, headers: HeaderMap) -> Response {
    let key = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, key)| key.trim())
        .filter(|k| !k.is_empty());
    let Some(key) = key else {
        return ApiError::Unauthorized.into_response();
    };
    let account = async {
        let mut tx = db.read().await?;
        account_by_key(&mut tx, key).await
    }
    .await;
    match account {
        Ok(Some(account)) if AccountLevel::parse(&account.level) == AccountLevel::Admin => {
            render(Some(&db))
        }
        Ok(Some(_)) => ApiError::admin_required().into_response(),
        Ok(None) => ApiError::Unauthorized.into_response(),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// A method as a label: the standard ones by name, any other as `other`, so a client cannot
/// make up new series.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PATCH => "PATCH",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Counts and times every answer by its route; an open change stream counts as open until
/// its body is dropped (the stream ended or the client went away).
pub async fn record(request: Request, next: Next) -> Response {
    let route = route_of(&request).to_owned();
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status();
    metrics::counter!(
        "buildd_http_requests_total",
        "route" => route.clone(),
        "method" => method,
        "status" => status.as_str().to_owned(),
    )
    .increment(1);
    metrics::histogram!(
        "buildd_http_request_duration_seconds",
        "route" => route.clone(),
        "method" => method,
    )
    .record(started.elapsed());
    if route == "/api/events" && status == StatusCode::OK {
        return counted_as_open(response);
    }
    response
}

/// Open while held.
struct OpenStream;

impl OpenStream {
    fn new() -> Self {
        metrics::gauge!("buildd_change_streams_open").increment(1.0);
        Self
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        metrics::gauge!("buildd_change_streams_open").decrement(1.0);
    }
}

fn counted_as_open(response: Response) -> Response {
    let (parts, body) = response.into_parts();
    let open = OpenStream::new();
    let body = body.into_data_stream().map(move |chunk| {
        let _held = &open;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(body))
}

/// Counts the answers of `POST …/workers/claim` that hand out tasks, and the tasks. Layered
/// on the API's own router, so claims made through the MCP endpoint count too.
pub async fn count_claims(request: Request, next: Next) -> Response {
    let is_claim = request.method() == Method::POST && request.uri().path() == "/workers/claim";
    let response = next.run(request).await;
    if !is_claim || response.status() != StatusCode::OK {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = match to_bytes(body, CLAIM_BODY_LIMIT).await {
        Ok(bytes) => bytes,
        Err(e) => {
            return ApiError::Internal(format!("reading a claim answer: {e}")).into_response()
        }
    };
    #[derive(serde::Deserialize)]
    struct Claimed {
        workers: Vec<serde::de::IgnoredAny>,
    }
    let tasks = serde_json::from_slice::<Claimed>(&bytes).map_or(0, |c| c.workers.len());
    let answer = if tasks > 0 { "tasks" } else { "none" };
    metrics::counter!("buildd_claims_total", "answer" => answer).increment(1);
    metrics::counter!("buildd_claimed_tasks_total").increment(tasks as u64);
    Response::from_parts(parts, Body::from(bytes))
}

/// Help lines, and the figures that start at zero, so a scrape lists them before the first
/// event.
fn describe() {
    metrics::describe_counter!(
        "buildd_http_requests_total",
        "Answered requests by route template, method and status"
    );
    metrics::describe_histogram!(
        "buildd_http_request_duration_seconds",
        metrics::Unit::Seconds,
        "Time to the answer's head by route template and method"
    );
    metrics::describe_gauge!(
        "buildd_change_streams_open",
        "Change streams (GET /api/events) open now"
    );
    metrics::describe_counter!(
        "buildd_claims_total",
        "Claims answered, by whether they handed out tasks"
    );
    metrics::describe_counter!("buildd_claimed_tasks_total", "Tasks handed out by claims");
    metrics::describe_counter!(
        "buildd_organizer_runs_started_total",
        "Organizer runs started (planning tasks inserted)"
    );
    metrics::describe_histogram!(
        "buildd_db_write_wait_seconds",
        metrics::Unit::Seconds,
        "Time a write waits for the database's one writer connection"
    );
    metrics::describe_histogram!(
        "buildd_db_write_hold_seconds",
        metrics::Unit::Seconds,
        "Time a write holds the writer connection (its own commit included, when it commits)"
    );
    metrics::describe_histogram!(
        "buildd_db_commit_seconds",
        metrics::Unit::Seconds,
        "Time the writer's COMMIT takes, mostly the disk's sync"
    );
    metrics::describe_gauge!(
        "buildd_db_wal_uncopied_pages",
        "Pages of the write-ahead log not yet copied into the database file, at the last checkpoint"
    );
    metrics::describe_gauge!(
        "buildd_db_write_cpu_seconds",
        metrics::Unit::Seconds,
        "CPU time used so far by the two threads that run writes (the write thread and the writer connection's SQLite thread)"
    );
    metrics::describe_counter!(
        "buildd_db_commits_total",
        "Commits of the writer: each makes a group of writes durable with one fsync"
    );
    metrics::describe_counter!(
        "buildd_db_committed_writes_total",
        "Writes made durable by those commits"
    );
    metrics::describe_counter!(
        "buildd_db_writes_refused_total",
        "Writes refused (503) before they started because the queue ahead was too long, by lane"
    );
    metrics::describe_gauge!(
        "buildd_db_writes_waiting",
        "Writes waiting now for the writer connection (SQLite) or a connection of the pool (Postgres), at the scrape"
    );
    metrics::describe_gauge!(
        "buildd_db_pool_connections",
        "Postgres only: the pool's open connections by state (busy, idle), at the scrape"
    );
    metrics::describe_counter!(
        "buildd_db_conflicts_total",
        "Postgres only: writes that met another's (a deadlock or a serialization failure) and were rolled back"
    );
    metrics::describe_counter!(
        "buildd_db_retries_total",
        "Postgres only: requests run again because their write was rolled back on meeting another's"
    );
    metrics::gauge!("buildd_change_streams_open").increment(0.0);
    metrics::gauge!("buildd_db_wal_uncopied_pages").increment(0.0);
    metrics::counter!("buildd_db_commits_total").increment(0);
    metrics::counter!("buildd_db_committed_writes_total").increment(0);
    metrics::counter!("buildd_claimed_tasks_total").increment(0);
    metrics::counter!("buildd_organizer_runs_started_total").increment(0);
}
