//! A person stops a task (`PATCH /api/tasks/{id} {status: cancelled, reason?}`): who, when
//! and why are kept and told to the feed; its agent's seat is free at once and its runner is
//! told to abort; a task that already ended is not stopped again.

mod common;

use axum::http::StatusCode;
use common::{TestApp, WorkerVerbs};
use serde_json::json;

#[tokio::test]
async fn a_stopped_task_ends_its_agents_run_and_says_who_stopped_it() {
    let app = TestApp::new().await;
    let mission = app.mission("Faster builds").await;
    let task = app.task(Some(&mission), "Cache the toolchain").await;
    let worker = app.claim_task(&task).await;
    app.report_ok(
        &worker,
        json!({"status": "running", "currentAction": "Looping"}),
    )
    .await;

    let (status, stopped) = app
        .call(
            "PATCH",
            &format!("/api/tasks/{task}"),
            &app.admin,
            Some(json!({"status": "cancelled", "reason": "It is looping"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{stopped}");
    assert_eq!(stopped["status"], "cancelled");
    assert_eq!(stopped["stopped"]["by"], "a");
    assert_eq!(stopped["stopped"]["reason"], "It is looping");
    assert!(stopped["stopped"]["at"].is_string());

    // The seat is free at once: the worker has ended, with who stopped it.
    let (_, detail) = app
        .call(
            "GET",
            &format!("/api/tasks/{task}?include=workers"),
            &app.admin,
            None,
        )
        .await;
    let run = &detail["workers"][0];
    assert_eq!(run["status"], "failed", "{detail}");
    assert_eq!(run["error"], "Stopped by a: It is looping");

    // Its next report tells the runner to abort, as Buildd's runner reads it.
    let (status, answer) = app
        .report(
            &worker,
            json!({"status": "running", "currentAction": "Still looping"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        (
            &answer["abort"],
            &answer["actualStatus"],
            &answer["hasDeliverables"]
        ),
        (&json!(true), &json!("failed"), &json!(false))
    );
    // And its own reconcile reads it ended.
    let (_, own) = app
        .call("GET", &format!("/api/workers/{worker}"), &app.worker, None)
        .await;
    assert_eq!(own["status"], "failed");

    // The feed says so.
    let (_, feed) = app
        .call(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            &app.admin,
            None,
        )
        .await;
    let note = feed["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["title"] == "Stopped: Cache the toolchain")
        .unwrap_or_else(|| panic!("no stop note: {feed}"));
    assert_eq!(note["body"], "Stopped by a: It is looping");
    assert_eq!(note["taskId"], task.as_str());

    // A stopped deliverable is not counted done: it leaves the count, so the mission's one
    // other deliverable, done, is all of its progress.
    assert_eq!(app.mission_json(&mission).await["progress"], 0);
    let other = app.task(Some(&mission), "Pin the compiler").await;
    app.complete_task(&other, json!({"summary": "Pinned"}))
        .await;
    assert_eq!(app.mission_json(&mission).await["progress"], 100);
}

#[tokio::test]
async fn a_task_that_already_ended_is_not_stopped() {
    let app = TestApp::new().await;
    let task = app.task(None, "Write the changelog").await;
    app.complete_task(&task, json!({"summary": "Done"})).await;
    let (status, answer) = app
        .call(
            "PATCH",
            &format!("/api/tasks/{task}"),
            &app.admin,
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        answer["error"],
        "The task already ended (completed): only queued or running work can be stopped"
    );
    assert_eq!(app.task_json(&task).await["status"], "completed");
    // A queued task stops without a reason.
    let queued = app.task(None, "Tidy the docs").await;
    let (status, stopped) = app
        .call(
            "PATCH",
            &format!("/api/tasks/{queued}"),
            &app.admin,
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{stopped}");
    assert!(stopped["stopped"]["reason"].is_null());
    // A worker key does not stop work.
    let (status, _) = app
        .call(
            "PATCH",
            &format!("/api/tasks/{queued}"),
            &app.worker,
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
