//! What a server run for months answers besides the API: health and readiness without a key,
//! a request id on every answer (and in a 5xx's JSON), one log line per request holding no
//! key, id or query value, Prometheus figures for admins, and the security headers, in
//! both modes.

mod common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use buildd_server::db::sql;
use buildd_server::metrics_router;
use buildd_server::upstream::{self, Upstream, UpstreamOptions};
use common::*;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

struct Got {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Got {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not JSON: {}", self.body))
    }

    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap())
            .unwrap_or_else(|| panic!("no {name} in {:?}", self.headers))
    }
}

async fn send(router: &axum::Router, request: Request<Body>) -> Got {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Got {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

async fn get(router: &axum::Router, path: &str, key: &str) -> Got {
    let mut request = Request::get(path);
    if !key.is_empty() {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    send(router, request.body(Body::empty()).unwrap()).await
}

/// The value of the series `line` (name and labels, as rendered) in a scrape; 0 if absent.
fn figure(scrape: &str, line: &str) -> f64 {
    scrape
        .lines()
        .find_map(|l| l.strip_prefix(line)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test]
async fn health_needs_no_key_and_readiness_names_what_is_missing() {
    let app = TestApp::new().await;
    let health = get(&app.router, "/healthz", NO_KEY).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.json(), json!({"status": "ok"}));
    assert_eq!(health.header("cache-control"), "no-store");
    let ready = get(&app.router, "/readyz", NO_KEY).await;
    assert_eq!(ready.status, StatusCode::OK);
    assert_eq!(ready.json(), json!({"status": "ready"}));

    let mut tx = app.db.write().await.unwrap();
    let (last,): (i64,) = sql::query_as("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut tx)
        .await
        .unwrap();
    sql::query("DELETE FROM _sqlx_migrations WHERE version = ?")
        .bind(last)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let unready = get(&app.router, "/readyz", NO_KEY).await;
    assert_eq!(unready.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        unready.json()["error"],
        format!("not ready: migrations not applied: {last}")
    );
    // The process still answers.
    assert_eq!(
        get(&app.router, "/healthz", NO_KEY).await.status,
        StatusCode::OK
    );
    let post = send(
        &app.router,
        Request::post("/healthz").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(post.json()["error"].is_string());
}

#[tokio::test]
async fn every_answer_carries_a_request_id_taken_only_when_plain() {
    let app = TestApp::new().await;
    let mut seen = Vec::new();
    for path in [
        "/api/missions",
        "/healthz",
        "/api/nothing-here",
        "/elsewhere",
    ] {
        let got = get(&app.router, path, &app.admin).await;
        let id = got.header("x-request-id").to_string();
        assert_eq!(id.len(), 36, "{path}: {id}");
        seen.push(id);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 4, "each request its own id");

    let with = |id: &str| {
        Request::get("/api/missions")
            .header("Authorization", format!("Bearer {}", app.admin))
            .header("x-request-id", id)
            .body(Body::empty())
            .unwrap()
    };
    let kept = send(&app.router, with("edge-7f3a:42")).await;
    assert_eq!(kept.header("x-request-id"), "edge-7f3a:42");
    for unfit in ["has spaces in it", "quote\"d", &"x".repeat(65)] {
        let replaced = send(&app.router, with(unfit)).await;
        let id = replaced.header("x-request-id");
        assert_ne!(id, unfit);
        assert_eq!(id.len(), 36, "{id}");
    }
}

#[tokio::test]
async fn metrics_are_for_admin_keys_or_a_listener_of_their_own() {
    let app = TestApp::new().await;
    let none = get(&app.router, "/metrics", NO_KEY).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert!(none.json()["error"].is_string());
    let unknown = get(&app.router, "/metrics", "bld_not_a_key").await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    for key in [&app.worker, &app.trigger] {
        let refused = get(&app.router, "/metrics", key).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert_eq!(refused.json()["error"], "Requires admin-level API key");
    }

    let mission = app.mission("Counted").await;
    let before = get(&app.router, "/metrics", &app.admin).await;
    assert_eq!(before.status, StatusCode::OK);
    assert!(before
        .header("content-type")
        .starts_with("text/plain; version=0.0.4"));
    let detail =
        "buildd_http_requests_total{route=\"/api/missions/{id}\",method=\"GET\",status=\"200\"}";
    let claims = "buildd_claims_total{answer=\"tasks\"}";
    let claimed = "buildd_claimed_tasks_total";
    let runs = "buildd_organizer_runs_started_total";
    let (status, _) = app
        .call("GET", &format!("/api/missions/{mission}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    let task = app.task(Some(&mission), "Claim me").await;
    app.claim_task(&task).await;
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/missions/{mission}/run"),
            &app.admin,
            None,
        )
        .await;
    assert!(status.is_success(), "{body}");
    let after = get(&app.router, "/metrics", &app.admin).await.body;
    // Other tests of this file run at once: each figure moved at least by this test's own.
    for (series, by) in [(detail, 1.0), (claims, 1.0), (claimed, 1.0), (runs, 1.0)] {
        assert!(
            figure(&after, series) >= figure(&before.body, series) + by,
            "{series}: {after}"
        );
    }
    for series in [
        "buildd_http_request_duration_seconds_bucket{route=\"/api/missions/{id}\",method=\"GET\",le=\"+Inf\"}",
        "buildd_db_write_wait_seconds_count",
        "buildd_db_commit_seconds_count",
    ] {
        assert!(figure(&after, series) >= 1.0, "{series}: {after}");
    }
    assert!(!after.contains(&mission), "a mission id in a label");
    assert!(after.contains("buildd_change_streams_open"), "{after}");
    assert!(after.contains("buildd_db_wal_uncopied_pages"), "{after}");
    // Read at the scrape, from the threads of the database this router serves; Postgres
    // runs the writes in its own processes.
    #[cfg(target_os = "linux")]
    assert_eq!(
        after.contains("\nbuildd_db_write_cpu_seconds "),
        !app.db.is_postgres(),
        "{after}"
    );

    // On a listener of its own, no key is asked; the public router no longer has it.
    let own = get(&metrics_router(None), "/metrics", NO_KEY).await;
    assert_eq!(own.status, StatusCode::OK);
    assert!(own.body.contains("buildd_http_requests_total"));
    let options = buildd_server::AppOptions {
        metrics_for_admins: false,
        ..Default::default()
    };
    let public = buildd_server::app_with_options(app.db.clone(), None, options);
    let gone = get(&public, "/metrics", &app.admin).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_open_change_stream_counts_until_it_is_dropped() {
    let app = TestApp::new().await;
    let open = || async {
        let scrape = get(&metrics_router(None), "/metrics", NO_KEY).await.body;
        figure(&scrape, "buildd_change_streams_open")
    };
    let before = open().await;
    let response = app
        .router
        .clone()
        .oneshot(
            Request::get("/api/events")
                .header("Authorization", format!("Bearer {}", app.admin))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap();
    assert!(first.is_data());
    assert_eq!(open().await, before + 1.0);
    drop(body);
    assert_eq!(open().await, before);
}

/// A dashboard with trunk's inline loader, as `trunk build` writes it.
const PAGE: &str = "<!DOCTYPE html><html><head>\
<link rel=\"modulepreload\" href=\"/app-0123456789abcdef.js\">\
<script src=\"/extra.js\"></script></head><body>\
<script type=\"module\">
import init from '/app-0123456789abcdef.js';
const wasm = await init({ module_or_path: '/app-0123456789abcdef_bg.wasm' });
</script><SCRIPT>console.log(1)</SCRIPT></body></html>";

/// The two inline scripts of `PAGE`, hashed by another tool.
const PAGE_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' \
'sha256-VXYV+TfQ/bfrC1dbDXTi3shbONFdeq8HYqYY7NSOzZE=' \
'sha256-CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M='; style-src 'self'; \
style-src-attr 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; \
frame-ancestors 'none'";

fn assert_secure(got: &Got, what: &str) {
    assert_eq!(got.header("x-content-type-options"), "nosniff", "{what}");
    assert_eq!(got.header("x-frame-options"), "DENY", "{what}");
    assert_eq!(got.header("referrer-policy"), "no-referrer", "{what}");
}

async fn check_headers(router: &axum::Router, key: &str) {
    for path in ["/", "/missions/m1", "/index.html"] {
        let page = get(router, path, NO_KEY).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        assert_secure(&page, path);
        assert_eq!(
            page.header("content-security-policy"),
            PAGE_POLICY,
            "{path}"
        );
    }
    for path in [
        "/api/missions",
        "/app-0123456789abcdef.js",
        "/healthz",
        "/api/nothing",
    ] {
        let other = get(router, path, key).await;
        assert_secure(&other, path);
        assert!(
            !other.headers.contains_key("content-security-policy"),
            "{path}"
        );
    }
    let robots = get(router, "/robots.txt", NO_KEY).await;
    assert_eq!(robots.status, StatusCode::OK);
    assert_eq!(robots.header("content-type"), "text/plain; charset=utf-8");
    assert_eq!(robots.body, "User-agent: *\nDisallow: /\n");
    assert_secure(&robots, "/robots.txt");
}

fn dist_with_page(dir: &std::path::Path) -> std::path::PathBuf {
    let dist = dir.join("dist");
    std::fs::create_dir(&dist).unwrap();
    std::fs::write(dist.join("index.html"), PAGE).unwrap();
    std::fs::write(dist.join("app-0123456789abcdef.js"), "export default 1;").unwrap();
    dist
}

#[tokio::test]
async fn security_headers_and_the_page_policy_in_both_modes() {
    let app = TestApp::new().await;
    let dir = tempfile::tempdir().unwrap();
    let dist = dist_with_page(dir.path());
    let served = buildd_server::app(app.db.clone(), Some(&dist));
    check_headers(&served, &app.admin).await;

    // Upstream mode: the same, with an upstream that is not there (nothing here asks it).
    let upstream = Upstream::new(&UpstreamOptions::new("http://127.0.0.1:9")).unwrap();
    let forwarding = upstream::app(upstream, Some(&dist));
    check_headers(&forwarding, &app.admin).await;
    assert_eq!(
        get(&forwarding, "/readyz", NO_KEY).await.json(),
        json!({"status": "ready"})
    );
    assert_eq!(
        get(&forwarding, "/metrics", &app.admin).await.status,
        StatusCode::NOT_FOUND
    );

    // A rebuild while serving: the policy follows the new page.
    let rebuilt =
        "<html><body><script type=\"module\">import init from '/b.js';</script></body></html>";
    std::fs::write(dist.join("index.html"), rebuilt).unwrap();
    let page = get(&served, "/", NO_KEY).await;
    let policy = page.header("content-security-policy");
    assert!(!policy.contains("VXYV+TfQ"), "{policy}");
    assert_eq!(policy.matches("'sha256-").count(), 1, "{policy}");
}
