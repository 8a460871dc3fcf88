//! A claim lasts while its runner reports: a runner that goes silent loses its task to the
//! queue, and its late reports are refused.

mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use buildd_server::scheduler::{release_expired, CLAIM_TTL_MINUTES};
use chrono::{DateTime, Duration, Utc};
use common::{TestApp, WorkerVerbs};
use serde_json::{json, Value};

/// Moves the claims on `tasks` to run out a minute from now, as if taken 59 minutes ago.
async fn expire_soon(app: &TestApp, tasks: &[&str]) -> DateTime<Utc> {
    let soon = Utc::now() + Duration::minutes(1);
    let mut tx = app.db.write().await.unwrap();
    for task in tasks {
        sql::query("UPDATE tasks SET expires_at = ? WHERE id = ?")
            .bind(soon.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
            .bind(*task)
            .execute(&mut tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    soon
}

fn expires_at(task: &Value) -> DateTime<Utc> {
    task["expiresAt"].as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn a_silent_runner_loses_its_task_and_its_late_report_is_refused() {
    let app = TestApp::new().await;
    let m = app.mission("Leases").await;
    let silent = app.task(Some(&m), "Silent work").await;
    let busy = app.task(Some(&m), "Busy work").await;
    let silent_worker = app.claim_task(&silent).await;
    let busy_worker = app.claim_task(&busy).await;
    let claimed = expires_at(&app.task_json(&silent).await);
    assert!(claimed > Utc::now() + Duration::minutes(CLAIM_TTL_MINUTES - 1));

    // Nothing runs out before its time.
    assert_eq!(release_expired(&app.db, Utc::now()).await.unwrap(), 0);

    // Both claims are a minute from running out; the busy runner reports, the silent one
    // does not.
    let soon = expire_soon(&app, &[&silent, &busy]).await;
    let (status, body) = app
        .report(
            &busy_worker,
            json!({"status": "running", "currentAction": "Testing"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let renewed = expires_at(&app.task_json(&busy).await);
    assert!(
        renewed > soon + Duration::minutes(CLAIM_TTL_MINUTES - 2),
        "a report renews the claim"
    );

    let later = soon + Duration::minutes(1);
    assert_eq!(release_expired(&app.db, later).await.unwrap(), 1);
    let task = app.task_json(&silent).await;
    assert_eq!(task["status"], "pending");
    assert_eq!(task["claimedBy"], Value::Null);
    assert_eq!(task["expiresAt"], Value::Null);
    assert_eq!(app.task_json(&busy).await["status"], "assigned");
    assert_eq!(
        release_expired(&app.db, later).await.unwrap(),
        0,
        "released once"
    );

    // The silent runner's worker failed; when it wakes up, it is told to stop.
    let (status, body) = app
        .report(
            &silent_worker,
            json!({"status": "completed", "summary": "Late"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["abort"], true);
    assert_eq!(body["actualStatus"], "failed");

    // The mission's feed says what happened, and another runner can take the task.
    let (_, notes) = app
        .call("GET", &format!("/api/missions/{m}/notes"), &app.admin, None)
        .await;
    let note = &notes["notes"][0];
    assert_eq!(note["type"], "warning");
    assert_eq!(note["title"], "\"Silent work\" went back to the queue");
    assert_eq!(note["taskId"], silent.as_str());
    let again = app.claim_task(&silent).await;
    assert_ne!(again, silent_worker);
    let (status, body) = app
        .report(&again, json!({"status": "completed", "summary": "Done"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.task_json(&silent).await["status"], "completed");
}

#[tokio::test]
async fn a_task_put_back_in_the_queue_leaves_its_old_runner_out() {
    let app = TestApp::new().await;
    let m = app.mission("Handover").await;
    let task = app.task(Some(&m), "Handed over").await;
    let first = app.claim_task(&task).await;
    app.set_task_status(&task, "pending").await;
    let second = app.claim_task(&task).await;
    assert_ne!(first, second);
    let soon = expire_soon(&app, &[&task]).await;
    let soon_text = soon.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);

    // The first runner lost the task when it went back to the queue.
    let (status, body) = app.report(&first, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["abort"], true);
    assert_eq!(app.task_json(&task).await["expiresAt"], soon_text.as_str());
    let (status, body) = app.report(&second, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(expires_at(&app.task_json(&task).await) > soon + Duration::minutes(30));
}

/// Reports a few seconds apart leave the lease (and the task) alone while it still runs the
/// whole TTL from now; the first report after that moves it past a TTL from then.
#[tokio::test]
async fn a_lease_that_runs_the_whole_ttl_is_not_rewritten_by_each_report() {
    let app = TestApp::new().await;
    let m = app.mission("Steady").await;
    let task = app.task(Some(&m), "Steady work").await;
    let worker = app.claim_task(&task).await;
    let claimed = app.task_json(&task).await;

    let (status, body) = app.report(&worker, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let after = app.task_json(&task).await;
    assert_eq!(after["expiresAt"], claimed["expiresAt"]);
    assert_eq!(after["updatedAt"], claimed["updatedAt"]);

    // The claim has run for a while: the next report renews it.
    let (status, body) = app.report(&worker, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let soon = expire_soon(&app, &[&task]).await;
    let reported = Utc::now();
    let (status, body) = app.report(&worker, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let renewed = expires_at(&app.task_json(&task).await);
    assert!(renewed > soon);
    assert!(
        renewed >= reported + Duration::minutes(CLAIM_TTL_MINUTES),
        "{renewed} runs a whole TTL past the report at {reported}"
    );
}
