//! The write queue under load: writes queued together share a commit and each is its own
//! (a refused one changes nothing), and a queue too long to drain in time refuses a
//! runner's writes at once with `503` and `Retry-After`, while reads and a person's writes
//! are still served.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{TestApp, WorkerVerbs};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

/// Sends `method path` with `key` and `body`; the status, the `Retry-After` header and the
/// JSON answer.
async fn send(
    app: &TestApp,
    method: &str,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> (StatusCode, Option<String>, Value) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("Authorization", format!("Bearer {key}"))
        .header("Content-Type", "application/json")
        .body(
            body.map(|b| Body::from(b.to_string()))
                .unwrap_or_else(Body::empty),
        )
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        retry_after,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn until_waiting(app: &TestApp, n: usize) {
    while app.db.write_queue().0 < n {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// Twenty notes sent at once while the writer is busy, and one refused among them: the
/// twenty are all there, committed in fewer commits than writes, and the refused one left
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_sent_together_share_commits_and_a_refused_one_changes_nothing() {
    let app = TestApp::new().await;
    let mission = app.mission("Busy").await;
    let path = format!("/api/missions/{mission}/notes");
    let held = app.db.write().await.unwrap();
    let commits = app.db.write_queue().1;
    let app = std::sync::Arc::new(app);
    let notes: Vec<_> = (0..21)
        .map(|i| {
            let (app, path) = (app.clone(), path.clone());
            tokio::spawn(async move {
                // The eleventh names a type notes do not have.
                let kind = if i == 10 { "gossip" } else { "update" };
                let body = json!({"type": kind, "title": format!("note {i:02}")});
                send(&app, "POST", &path, &app.admin, Some(body)).await
            })
        })
        .collect();
    until_waiting(&app, 20).await;
    held.commit().await.unwrap();
    for (i, note) in notes.into_iter().enumerate() {
        let (status, _, body) = note.await.unwrap();
        let want = if i == 10 {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::CREATED
        };
        assert_eq!(status, want, "note {i}: {body}");
    }
    let (_, _, listed) = send(&app, "GET", &format!("{path}?limit=50"), &app.admin, None).await;
    let mut titles: Vec<String> = listed["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["title"].as_str().unwrap().to_string())
        .collect();
    titles.sort();
    let want: Vec<String> = (0..21)
        .filter(|i| *i != 10)
        .map(|i| format!("note {i:02}"))
        .collect();
    assert_eq!(titles, want);
    let commits = app.db.write_queue().1 - commits;
    assert!(commits < 10, "21 writes took {commits} commits");
}

/// With the writer held and the queue ahead estimated over a runner's bound, a runner's
/// write is refused at once (503, `Retry-After`, `{"error"}`) and has written nothing, and
/// its claim is refused before it reads; a
/// read answers meanwhile, and a person's write waits its turn and goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_refuses_runners_first_and_reads_still_answer() {
    let app = std::sync::Arc::new(TestApp::new().await);
    let mission = app.mission("Load").await;
    // A write that holds the writer 1.5 s: what a write is now expected to take.
    let slow = app.db.write().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    slow.commit().await.unwrap();
    let held = app.db.write().await.unwrap();
    // Writes queue behind it until they would take longer than a runner's bound to drain.
    let mut queued = Vec::new();
    while app.db.write_backlog() <= buildd_server::db::Lane::Worker.bound() {
        assert!(queued.len() < 100, "{:?}", app.db.write_backlog());
        let app_ = app.clone();
        queued.push(tokio::spawn(async move {
            app_.db.write().await.unwrap().commit().await
        }));
        until_waiting(&app, queued.len()).await;
    }

    let task =
        json!({"title": "Filed by a runner", "workspaceId": app.workspace, "missionId": mission});
    let (status, retry_after, body) =
        send(&app, "POST", "/api/tasks", &app.worker, Some(task)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let seconds: u64 = retry_after.expect("Retry-After").parse().unwrap();
    assert!((1..=30).contains(&seconds), "{seconds}");
    assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");
    // A claim is refused before it reads what it could claim: here there is nothing, which
    // a claim with room would have answered from a snapshot.
    let claim = json!({"runner": "busy-runner", "maxTasks": 1});
    let (status, retry_after, body) =
        send(&app, "POST", "/api/workers/claim", &app.worker, Some(claim)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(retry_after.is_some(), "{body}");

    let (status, _, body) = send(
        &app,
        "GET",
        &format!("/api/missions/{mission}"),
        &app.admin,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let person = {
        let app = app.clone();
        tokio::spawn(async move {
            let body = json!({"type": "update", "title": "A person's note"});
            send(
                &app,
                "POST",
                &format!("/api/missions/{mission}/notes"),
                &app.admin,
                Some(body),
            )
            .await
        })
    };
    until_waiting(&app, queued.len() + 1).await;
    held.commit().await.unwrap();
    for q in queued {
        q.await.unwrap().unwrap();
    }
    let (status, _, body) = person.await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, _, tasks) = send(&app, "GET", "/api/tasks", &app.admin, None).await;
    assert!(
        !tasks["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["title"] == "Filed by a runner"),
        "{tasks}"
    );
}

/// The pages one report appends to the log: the log is first copied into the database, so
/// the report's commit starts it again from its beginning. A chore of the server writing
/// at the same time adds pages, or shows the log just started again (none): the least of a
/// few tries, leaving out those that saw none.
async fn pages_written(app: &TestApp, worker: &str, reports: &[Value]) -> i64 {
    use sqlx::{Connection, SqliteConnection};
    let url = format!("sqlite://{}", app.db_path().display());
    let mut side = SqliteConnection::connect(&url).await.unwrap();
    let checkpoint = "PRAGMA wal_checkpoint(PASSIVE)";
    let mut least = i64::MAX;
    for body in reports {
        loop {
            let (busy, log, copied): (i64, i64, i64) = sqlx::query_as(checkpoint)
                .fetch_one(&mut side)
                .await
                .unwrap();
            if busy == 0 && log == copied {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        app.report_ok(worker, body.clone()).await;
        let (_, log, _): (i64, i64, i64) = sqlx::query_as(checkpoint)
            .fetch_one(&mut side)
            .await
            .unwrap();
        if log > 0 {
            least = least.min(log);
        }
    }
    assert!(least < i64::MAX, "no try saw the report's pages");
    side.close().await.unwrap();
    least
}

/// A report that repeats the worker's status (most of a fleet's writes) does not write the
/// status again: set even to its own value, the column's index entry would be rewritten, a
/// page more on disk per report.
#[tokio::test]
async fn a_report_that_repeats_the_status_writes_fewer_pages() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let t = app.task(Some(&m), "Refactor the cart").await;
    let worker = app.claim_task(&t).await;
    app.report_ok(&worker, json!({"status": "running"})).await;
    let report = |status: &str, step: usize| json!({"status": status, "currentAction": format!("Step {step}")});
    let repeated: Vec<Value> = (1..=3).map(|i| report("running", i)).collect();
    let repeated = pages_written(&app, &worker, &repeated).await;
    let flipped: Vec<Value> = (4..=6)
        .map(|i| report(["waiting_input", "running"][i % 2], i))
        .collect();
    let changed = pages_written(&app, &worker, &flipped).await;
    assert!(
        repeated < changed,
        "pages: status repeated {repeated}, status changed {changed}"
    );
    let (_, stored) = app
        .call("GET", &format!("/api/workers/{worker}"), &app.worker, None)
        .await;
    assert_eq!(stored["status"], "waiting_input");
    assert_eq!(stored["currentAction"], "Step 6");
}

/// On Postgres too: with the writes' connections held and the writes waiting for them
/// estimated over a runner's bound, a runner's write is refused at once (503,
/// `Retry-After`) and has written nothing, a read is answered on the connections left to
/// reads, a person's write waits its turn and goes through, and `/metrics` shows the pool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_writes_queued_for_the_pool_refuse_runners_first_and_reads_still_answer() {
    let app = std::sync::Arc::new(TestApp::on_postgres().await);
    let mission = app.mission("Load").await;
    // The worker's key is looked up (and kept) before the pool is busy.
    let (status, _, _) = send(&app, "GET", "/api/accounts/me", &app.worker, None).await;
    assert_eq!(status, StatusCode::OK);
    // A write that holds its connection 1.5 s: what a write is now expected to take.
    let slow = app.db.write().await.unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    slow.commit().await.unwrap();
    // Every connection writes may take is held (a pool of 8 leaves 2 to reads)...
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(app.db.write().await.unwrap());
    }
    // ...and writes wait for one until they would take longer than a runner's bound.
    let mut queued = Vec::new();
    while app.db.write_backlog() <= buildd_server::db::Lane::Worker.bound() {
        assert!(queued.len() < 100, "{:?}", app.db.write_backlog());
        let app_ = app.clone();
        queued.push(tokio::spawn(async move {
            app_.db.write().await.unwrap().commit().await
        }));
        until_waiting(&app, queued.len()).await;
    }

    let task =
        json!({"title": "Filed by a runner", "workspaceId": app.workspace, "missionId": mission});
    let (status, retry_after, body) =
        send(&app, "POST", "/api/tasks", &app.worker, Some(task)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let seconds: u64 = retry_after.expect("Retry-After").parse().unwrap();
    assert!((1..=30).contains(&seconds), "{seconds}");
    assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");

    let (status, _, body) = send(
        &app,
        "GET",
        &format!("/api/missions/{mission}"),
        &app.admin,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let metrics = app
        .router
        .clone()
        .oneshot(
            Request::get("/metrics")
                .header("Authorization", format!("Bearer {}", app.admin))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let metrics = metrics.into_body().collect().await.unwrap().to_bytes();
    let metrics = String::from_utf8_lossy(&metrics);
    let waiting = format!("buildd_db_writes_waiting {}", queued.len());
    assert!(metrics.contains(&waiting), "{waiting} not in {metrics}");
    assert!(
        metrics.contains("buildd_db_pool_connections{state=\"busy\"}"),
        "{metrics}"
    );

    let person = {
        let app = app.clone();
        tokio::spawn(async move {
            let body = json!({"type": "update", "title": "A person's note"});
            send(
                &app,
                "POST",
                &format!("/api/missions/{mission}/notes"),
                &app.admin,
                Some(body),
            )
            .await
        })
    };
    until_waiting(&app, queued.len() + 1).await;
    for tx in held {
        tx.commit().await.unwrap();
    }
    for q in queued {
        q.await.unwrap().unwrap();
    }
    let (status, _, body) = person.await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (_, _, tasks) = send(&app, "GET", "/api/tasks", &app.admin, None).await;
    assert!(
        !tasks["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["title"] == "Filed by a runner"),
        "{tasks}"
    );
}
