mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use buildd_server::scheduler::tick;
use chrono::{Duration, Utc};
use common::*;
use serde_json::{json, Value};

async fn patch(app: &TestApp, path: &str, body: Value) -> (StatusCode, Value) {
    app.call("PATCH", path, &app.admin, Some(body)).await
}

#[tokio::test]
async fn the_effective_merge_policy_says_where_it_comes_from() {
    let app = TestApp::new().await;
    let id = app.mission("Payments").await;
    let path = format!("/api/missions/{id}");
    let effective = |m: &Value| {
        m["effectiveMergePolicy"]["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        effective(&app.mission_json(&id).await),
        "Auto-threshold — the built-in default"
    );

    let (status, body) = patch(&app, &path, json!({"mergePolicy": {"tier": "robot"}})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "mergePolicy.tier: must be one of auto-threshold, agent-review, human"
    );
    assert_eq!(
        body["errors"],
        json!([{"field": "mergePolicy.tier", "path": "tier", "code": "unknown_tier",
                "message": "must be one of auto-threshold, agent-review, human"}])
    );
    let (status, body) = patch(
        &app,
        &path,
        json!({"mergePolicy": {"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["mergePolicy"]["tier"], "agent-review");
    assert_eq!(
        effective(&app.mission_json(&id).await),
        "Agent review — set on this mission"
    );

    let ws = format!("/api/workspaces/{}", app.workspace);
    let (status, body) = patch(
        &app,
        &ws,
        json!({"gitConfig": {"mergePolicy": {"tier": "human", "x": 1}}}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .starts_with("gitConfig.mergePolicy.x: unknown field"));
    assert_eq!(body["errors"][0]["code"], "unknown_field");
    assert_eq!(body["errors"][0]["field"], "gitConfig.mergePolicy.x");
    let (status, _) = patch(
        &app,
        &ws,
        json!({"gitConfig": {"mergePolicy": {"tier": "human"}}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = patch(&app, &path, json!({"mergePolicy": null})).await;
    assert!(body["mergePolicy"].is_null());
    let m = app.mission_json(&id).await;
    assert_eq!(
        effective(&m),
        "Human — inherited from the workspace default"
    );
    assert_eq!(m["workspaceMergePolicy"], json!({"tier": "human"}));

    patch(
        &app,
        &path,
        json!({"mergePolicy": {"tier": "auto-threshold"}, "requiresReview": true}),
    )
    .await;
    let m = app.mission_json(&id).await;
    assert_eq!(effective(&m), "Human — this mission requires review");
    assert_eq!(
        m["effectiveMergePolicy"]["source"],
        "mission_requires_review"
    );
}

#[tokio::test]
async fn a_mission_closes_itself_when_its_work_is_done() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Docs", "isHeartbeat": true}))
        .await;
    // The organizer's first run is housekeeping; finish it with nothing to add.
    app.finish_planning(&id).await;
    assert_eq!(
        app.mission_json(&id).await["status"],
        "active",
        "no deliverables yet"
    );
    let a = app.task(Some(&id), "Write the guide").await;
    let b = app.task(Some(&id), "Ship the fix").await;
    app.complete_task(&a, json!({"summary": "written"})).await;
    app.complete_task(
        &b,
        json!({"prUrl": "https://github.com/acme/web/pull/8", "prNumber": 8}),
    )
    .await;
    let m = app.mission_json(&id).await;
    assert_eq!(m["status"], "active", "PR #8 is not merged");
    // The organizer planned after the last task; with the PR merged and that run done, the
    // next finish closes the mission.
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE workers SET merged_at = '2026-11-29T12:00:00.000Z' WHERE pr_number = 8")
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (_, page) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={id}&status=pending"),
            &app.admin,
            None,
        )
        .await;
    let run = page["tasks"][0]["id"].as_str().unwrap().to_string();
    app.complete_task(
        &run,
        json!({"structuredOutput": {"plan": [], "summary": "s", "missionComplete": true}}),
    )
    .await;
    let c = app.task(Some(&id), "Last touch").await;
    app.complete_task(&c, json!({"summary": "done"})).await;
    let m = app.mission_json(&id).await;
    assert_eq!(m["status"], "completed");
    assert_eq!(m["progress"], 100);
    assert_eq!(m["checkIns"]["enabled"], false);
    assert_eq!(
        tick(
            &app.db,
            Utc::now() + Duration::hours(3),
            &Default::default()
        )
        .await
        .unwrap(),
        0
    );
}

#[tokio::test]
async fn a_mission_that_requires_review_waits_dormant_until_closed() {
    let app = TestApp::new().await;
    let id = app
        .mission_with(json!({"title": "Auth", "requiresReview": true, "isHeartbeat": true}))
        .await;
    app.finish_planning(&id).await;
    let t = app.task(Some(&id), "Rotate keys").await;
    app.complete_task(&t, json!({"summary": "rotated"})).await;
    // The finished work asks the organizer whether the mission is done; it proposes it.
    let (_, runs) = app
        .call("GET", &format!("/api/missions/{id}/runs"), &app.admin, None)
        .await;
    assert_eq!(runs["runs"].as_array().unwrap().len(), 2, "{runs}");
    app.propose_completion(&id).await;
    let m = app.mission_json(&id).await;
    assert_eq!(m["status"], "active", "dormant, not completed");
    // A check-in defers and files nothing.
    tick(
        &app.db,
        Utc::now() + Duration::hours(3),
        &Default::default(),
    )
    .await
    .unwrap();
    let (_, runs) = app
        .call("GET", &format!("/api/missions/{id}/runs"), &app.admin, None)
        .await;
    assert_eq!(runs["checkIns"][0]["reason"], "dormant");
    assert_eq!(runs["runs"].as_array().unwrap().len(), 2);

    // Close mission.
    let (status, closed) = patch(
        &app,
        &format!("/api/missions/{id}"),
        json!({"status": "completed"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(closed["status"], "completed");
    assert_eq!(app.mission_json(&id).await["checkIns"]["enabled"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_last_completions_complete_a_mission_once() {
    let app = std::sync::Arc::new(TestApp::new().await);
    let id = app.mission("Upstream").await;
    let downstream = app
        .mission_with(json!({"title": "Downstream", "isHeartbeat": false}))
        .await;
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE missions SET depends_on_mission_id = ? WHERE id = ?")
        .bind(&id)
        .bind(&downstream)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let mut workers = Vec::new();
    for i in 0..4 {
        let t = app.task(Some(&id), &format!("Part {i}")).await;
        workers.push(app.claim_task(&t).await);
    }
    let handles: Vec<_> = workers
        .into_iter()
        .map(|w| {
            let app = app.clone();
            tokio::spawn(async move { app.report(&w, json!({"status": "completed"})).await.0 })
        })
        .collect();
    for h in handles {
        assert_eq!(h.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(app.mission_json(&id).await["status"], "completed");
    let (_, runs) = app
        .call(
            "GET",
            &format!("/api/missions/{downstream}/runs"),
            &app.admin,
            None,
        )
        .await;
    let labels: Vec<&str> = runs["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["dependency met"]);
}
