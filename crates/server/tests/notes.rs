mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

async fn post(app: &TestApp, key: &str, mission: &str, body: Value) -> (StatusCode, Value) {
    app.call(
        "POST",
        &format!("/api/missions/{mission}/notes"),
        key,
        Some(body),
    )
    .await
}

#[tokio::test]
async fn notes_are_validated_and_paged_newest_first() {
    let app = TestApp::new().await;
    let m = app.mission("Feed").await;
    for (body, error) in [
        (json!({"title": "x"}), "Invalid type. Must be one of: decision, question, warning, suggestion, update, reply, guidance"),
        (json!({"type": "rumour", "title": "x"}), "Invalid type. Must be one of: decision, question, warning, suggestion, update, reply, guidance"),
        (json!({"type": "update"}), "title is required"),
        (json!({"type": "update", "title": "  "}), "title is required"),
        (json!({"type": "update", "title": "x", "status": "maybe"}), "status must be open, answered or dismissed"),
        (json!({"type": "update", "title": "x", "replyTo": "nope"}), "replyTo must be a note of this mission"),
        (json!({"type": "update", "title": "x", "taskId": "nope"}), "taskId must be a task of this mission"),
    ] {
        let (status, answer) = post(&app, &app.admin, &m, body.clone()).await;
        assert_eq!((status, answer["error"].as_str()), (StatusCode::BAD_REQUEST, Some(error)), "{body}");
    }
    let (status, _) = post(
        &app,
        &app.trigger,
        &m,
        json!({"type": "update", "title": "x"}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post(
        &app,
        &app.other,
        &m,
        json!({"type": "update", "title": "x"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, q) = post(&app, &app.worker, &m, json!({"type": "question", "title": "Which cache?",
        "bodyText": "Redis or in-process?", "defaultChoice": "in-process", "options": ["redis", "in-process"]})).await;
    assert_eq!(status, StatusCode::CREATED, "{q}");
    assert_eq!(
        (q["authorType"].as_str(), q["status"].as_str()),
        (Some("agent"), Some("open"))
    );
    assert_eq!(q["body"], "Redis or in-process?");
    assert_eq!(q["options"], json!(["redis", "in-process"]));
    for i in 0..4 {
        post(
            &app,
            &app.worker,
            &m,
            json!({"type": "update", "title": format!("Update {i}")}),
        )
        .await;
    }
    let (_, first) = app
        .call(
            "GET",
            &format!("/api/missions/{m}/notes?limit=2"),
            &app.admin,
            None,
        )
        .await;
    let titles = |page: &Value| -> Vec<String> {
        page["notes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(titles(&first), ["Update 3", "Update 2"]);
    assert_eq!(first["hasMore"], true);
    let cursor = first["nextCursor"].as_str().unwrap();
    let (_, second) = app
        .call(
            "GET",
            &format!("/api/missions/{m}/notes?limit=2&cursor={cursor}"),
            &app.worker,
            None,
        )
        .await;
    assert_eq!(titles(&second), ["Update 1", "Update 0"]);
    let (_, last) = app
        .call(
            "GET",
            &format!(
                "/api/missions/{m}/notes?limit=2&cursor={}",
                second["nextCursor"].as_str().unwrap()
            ),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(titles(&last), ["Which cache?"]);
    assert_eq!(
        (last["hasMore"].as_bool(), last["nextCursor"].is_null()),
        (Some(false), true)
    );
    let (_, questions) = app
        .call(
            "GET",
            &format!("/api/missions/{m}/notes?type=question"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(titles(&questions), ["Which cache?"]);
    // Paging and filters refused alike here and on the team's list.
    for (path, message) in [
        (
            format!("/api/missions/{m}/notes?limit=500"),
            "limit must be",
        ),
        (format!("/api/missions/{m}/notes?limit=0"), "limit must be"),
        (
            format!("/api/missions/{m}/notes?type=garbage"),
            "type must be one of",
        ),
        ("/api/notes?type=garbage".to_string(), "type must be one of"),
    ] {
        let (status, answer) = app.call("GET", &path, &app.admin, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{answer}"
        );
    }
    let (status, _) = app
        .call("GET", &format!("/api/missions/{m}/notes"), &app.other, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_answer_on_an_auto_mission_starts_exactly_one_organizer_run() {
    let app = TestApp::new().await;
    let m = app
        .mission_with(json!({"title": "Cache", "isHeartbeat": false}))
        .await;
    let (_, q) = post(
        &app,
        &app.worker,
        &m,
        json!({"type": "question", "title": "Which cache?", "defaultChoice": "in-process"}),
    )
    .await;
    assert!(
        app.run_labels(&m).await.is_empty(),
        "an agent's question plans nothing"
    );
    let id = q["id"].as_str().unwrap();
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/missions/{m}/notes/{id}/reply"),
            &app.worker,
            Some(json!({"title": "Redis"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app
        .call(
            "POST",
            &format!("/api/missions/{m}/notes/nope/reply"),
            &app.admin,
            Some(json!({"title": "Redis"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, reply) = app
        .call(
            "POST",
            &format!("/api/missions/{m}/notes/{id}/reply"),
            &app.admin,
            Some(json!({"title": "Redis", "bodyText": "We run it already."})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{reply}");
    assert_eq!(
        (
            reply["type"].as_str(),
            reply["replyTo"].as_str(),
            reply["authorType"].as_str()
        ),
        (Some("reply"), Some(id), Some("user"))
    );
    let (_, page) = app
        .call(
            "GET",
            &format!("/api/missions/{m}/notes?type=question"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(page["notes"][0]["status"], "answered");
    assert_eq!(app.run_labels(&m).await, ["after your answer"]);

    // A second note while that run is in flight starts no second run.
    post(
        &app,
        &app.admin,
        &m,
        json!({"type": "guidance", "title": "Prefer small PRs"}),
    )
    .await;
    assert_eq!(app.run_labels(&m).await.len(), 1);

    // A manual mission does not plan on notes.
    let manual = app.mission("By hand").await;
    post(
        &app,
        &app.admin,
        &manual,
        json!({"type": "guidance", "title": "Hello"}),
    )
    .await;
    assert!(app.run_labels(&manual).await.is_empty());
}

#[tokio::test]
async fn a_task_of_no_mission_takes_notes_and_a_missions_task_points_to_its_feed() {
    let app = TestApp::new().await;
    let loose = app.task(None, "Loose work").await;
    let path = format!("/api/tasks/{loose}/notes");
    let (status, note) = app
        .call(
            "POST",
            &path,
            &app.worker,
            Some(json!({"type": "decision", "title": "Kept the old API", "bodyText": "Why"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{note}");
    assert_eq!(note["taskId"], loose.as_str());
    assert_eq!(note["missionId"], Value::Null);
    assert_eq!(
        note["authorType"], "agent",
        "a worker key's note is the agent's"
    );
    assert_eq!(note["status"], "answered");

    for (key, body, expected) in [
        (
            &app.trigger,
            json!({"type": "update", "title": "t"}),
            StatusCode::FORBIDDEN,
        ),
        (
            &app.other,
            json!({"type": "update", "title": "t"}),
            StatusCode::NOT_FOUND,
        ),
        (
            &app.worker,
            json!({"type": "guidance", "title": "t"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            &app.worker,
            json!({"type": "update", "title": "t", "authorType": "system"}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, answer) = app.call("POST", &path, key, Some(body)).await;
        assert_eq!(status, expected, "{answer}");
    }

    let mission = app.mission("Has a feed").await;
    let linked = app.task(Some(&mission), "Linked work").await;
    let (status, answer) = app
        .call(
            "POST",
            &format!("/api/tasks/{linked}/notes"),
            &app.worker,
            Some(json!({"type": "update", "title": "t"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        answer["error"].as_str().unwrap().contains("mission feed"),
        "{answer}"
    );
}
