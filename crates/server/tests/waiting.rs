//! Agents waiting on a person: listed for the team (`GET /api/tasks/waiting-input`) and
//! answered (`POST /api/workers/{id}/respond`): through instructions while the agent is
//! there, as a follow-up task once it is gone. Also Start now and Arm.

mod common;

use axum::http::StatusCode;
use common::{TestApp, WorkerVerbs};
use serde_json::{json, Value};

fn question() -> Value {
    json!({"type": "question", "prompt": "Which cache?",
           "options": [{"label": "Redis", "description": "fast"}, {"label": "None"}]})
}

async fn waiting(app: &TestApp, key: &str) -> Value {
    let (status, list) = app.call("GET", "/api/tasks/waiting-input", key, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list
}

async fn respond(app: &TestApp, worker: &str, message: &str) -> (StatusCode, Value) {
    app.call(
        "POST",
        &format!("/api/workers/{worker}/respond"),
        &app.admin,
        Some(json!({"message": message})),
    )
    .await
}

#[tokio::test]
async fn a_waiting_agent_is_listed_and_reads_the_answer_with_its_next_report() {
    let app = TestApp::new().await;
    let mission = app.mission("Faster builds").await;
    let task = app.task(Some(&mission), "Add caching").await;
    let worker = app.claim_task(&task).await;
    app.report_ok(
        &worker,
        json!({"status": "waiting_input", "currentAction": "Asking", "waitingFor": question()}),
    )
    .await;

    let list = waiting(&app, &app.admin).await;
    let item = &list["tasks"][0];
    assert_eq!(item["id"], task.as_str());
    assert_eq!(item["workerId"], worker.as_str());
    assert_eq!(item["missionId"], mission.as_str());
    assert_eq!(item["waitingFor"]["options"], json!(["Redis", "None"]));
    assert_eq!(item["live"], true);
    // Another team's key sees nothing of it.
    assert_eq!(waiting(&app, &app.other).await["tasks"], json!([]));
    // Nor may it answer.
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/workers/{worker}/respond"),
            &app.other,
            Some(json!({"message": "Redis"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, answered) = respond(&app, &worker, "Redis").await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    assert_eq!(answered["delivered"], "instructions");
    assert!(answered["taskId"].is_null());
    assert_eq!(waiting(&app, &app.admin).await["tasks"], json!([]));
    // The agent reads it with its next report.
    let report = app
        .report_ok(
            &worker,
            json!({"status": "running", "currentAction": "Going on"}),
        )
        .await;
    assert_eq!(report["instructions"], "Redis");
    // Answered once: again is refused.
    let (status, refused) = respond(&app, &worker, "None").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refused["error"], "Worker is not waiting for input");
    // The feed says who answered.
    let (_, feed) = app
        .call(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            &app.admin,
            None,
        )
        .await;
    assert!(
        feed["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["title"] == "Answered: Which cache?" && n["body"] == "a answered: Redis"),
        "{feed}"
    );
}

#[tokio::test]
async fn an_answer_to_an_agent_that_is_gone_becomes_a_follow_up_task() {
    let app = TestApp::new().await;
    let task = app.task(None, "Add caching").await;
    let worker = app.claim_task(&task).await;
    // Buildd's runner ends a session that asks, with the question still on the worker.
    app.report_ok(
        &worker,
        json!({"status": "failed", "error": "needs_input: Which cache?", "waitingFor": question(),
               "milestones": [{"type": "phase", "label": "Read the code", "ts": 1}]}),
    )
    .await;
    let list = waiting(&app, &app.admin).await;
    assert_eq!(list["tasks"][0]["live"], false, "{list}");

    let (status, answered) = respond(&app, &worker, "Use Redis").await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    assert_eq!(answered["delivered"], "follow_up");
    let next = app.task_json(answered["taskId"].as_str().unwrap()).await;
    assert_eq!(next["title"], "Continue: Add caching");
    assert_eq!(next["parentTaskId"], task.as_str());
    assert_eq!(next["status"], "pending");
    assert!(next["description"]
        .as_str()
        .unwrap()
        .ends_with("## What Was Accomplished\n- Read the code\n\n## Question Asked\nWhich cache?\n\n## User Response\nUse Redis"));
    assert_eq!(next["context"]["userInput"], "Use Redis");
    assert_eq!(waiting(&app, &app.admin).await["tasks"], json!([]));
    // A message is required.
    let (status, refused) = respond(&app, &worker, "  ").await;
    assert_eq!(
        (status, refused["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("message"))
    );
}

#[tokio::test]
async fn a_task_waiting_on_its_start_time_starts_now_only_when_forced() {
    let app = TestApp::new().await;
    let (status, created) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(
                json!({"title": "Nightly cleanup", "workspaceId": app.workspace,
                        "startAt": "2099-01-01T02:00:00Z"}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["startAt"], "2099-01-01T02:00:00.000Z");
    let path = format!("/api/tasks/{id}/start");
    let (status, gated) = app.call("POST", &path, &app.admin, None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(gated["gateReason"], "deferred_start");
    // Nothing claims it yet.
    let (_, none) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r"})),
        )
        .await;
    assert_eq!(none["workers"], json!([]));
    let (status, started) = app
        .call(
            "POST",
            &path,
            &app.admin,
            Some(json!({"forceOverride": true})),
        )
        .await;
    assert_eq!(
        (status, &started["started"]),
        (StatusCode::OK, &json!(true))
    );
    assert!(app.task_json(id).await["startAt"].is_null());
    app.claim_task(id).await;
    // Only a pending task starts.
    let (status, refused) = app.call("POST", &path, &app.admin, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
}

#[tokio::test]
async fn a_held_missions_work_waits_until_it_is_armed() {
    let app = TestApp::new().await;
    let mission = app
        .mission_with(
            json!({"title": "Migrate", "orchestrationMode": "manual", "startMode": "held"}),
        )
        .await;
    assert_eq!(app.mission_json(&mission).await["isHeld"], true);
    let task = app.task(Some(&mission), "Move the tables").await;
    let (_, none) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r"})),
        )
        .await;
    assert_eq!(none["workers"], json!([]), "{none}");
    let (status, armed) = app
        .call(
            "PATCH",
            &format!("/api/missions/{mission}"),
            &app.admin,
            Some(json!({"arm": true})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{armed}");
    assert_eq!(armed["isHeld"], false);
    app.claim_task(&task).await;
    let (status, refused) = app
        .call(
            "PATCH",
            &format!("/api/missions/{mission}"),
            &app.admin,
            Some(json!({"arm": false})),
        )
        .await;
    assert_eq!(
        (status, refused["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("arm"))
    );
}
