mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn create_answers_201_with_the_bare_mission() {
    let app = TestApp::new().await;
    let (status, body) = app
        .call(
            "POST",
            "/api/missions",
            &app.admin,
            Some(json!({"title": "  Ship search  ", "description": "Fast search", "workspaceId": app.workspace,
                        "priority": 3, "orchestrationMode": "manual", "requiresReview": true})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_keys(&body, &MISSION_KEYS);
    assert_eq!(body["title"], "Ship search");
    assert_eq!(body["status"], "active");
    assert_eq!(body["priority"], 3);
    assert_eq!(body["orchestrationMode"], "manual");
    assert_eq!(body["requiresReview"], true);
    assert_eq!(body["workspaceId"], app.workspace.as_str());
    assert_eq!(body["organizerTask"], Value::Null);
    assert!(body["createdAt"].as_str().unwrap().ends_with('Z'));
}

#[tokio::test]
async fn create_validates_each_field() {
    let app = TestApp::new().await;
    let cases = [
        (json!({}), "title is required"),
        (json!({"title": "   "}), "title is required"),
        (json!({"title": 5}), "title must be a string"),
        (
            json!({"title": "x", "status": "done"}),
            "status must be one of",
        ),
        (
            json!({"title": "x", "orchestrationMode": "sometimes"}),
            "orchestrationMode must be",
        ),
        (
            json!({"title": "x", "priority": "high"}),
            "priority must be an integer",
        ),
        (
            json!({"title": "x", "requiresReview": "yes"}),
            "requiresReview must be true or false",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = app
            .call("POST", "/api/missions", &app.admin, Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{body}: {answer}"
        );
    }
    let (status, answer) = app
        .call(
            "POST",
            "/api/missions",
            &app.admin,
            Some(json!({"title": "x", "workspaceId": "nope"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["error"], "Workspace not found");
    let (_, list) = app.call("GET", "/api/missions", &app.admin, None).await;
    assert_eq!(list["missions"], json!([]), "nothing was half-written");
}

#[tokio::test]
async fn malformed_json_is_400_never_500() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let task = app.task(Some(&mission), "T").await;
    for (method, path) in [
        ("POST", "/api/missions".to_string()),
        ("PATCH", format!("/api/missions/{mission}")),
        ("POST", "/api/tasks".to_string()),
        ("PATCH", format!("/api/tasks/{task}")),
        ("POST", "/api/workspaces".to_string()),
        ("PATCH", format!("/api/workspaces/{}", app.workspace)),
    ] {
        let (status, body) = app
            .raw(method, &path, &app.admin, Some("{\"title\": ".into()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{method} {path}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("Invalid JSON body"),
            "{body}"
        );
        let (status, body) = app
            .raw(method, &path, &app.admin, Some("[1, 2]".into()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{method} {path}");
        assert_eq!(body["error"], "Request body must be a JSON object");
    }
}

/// Buildd's order: priority, then the mission whose task started latest, then the latest
/// updated; one whose tasks never started comes after those that did, on both databases.
#[tokio::test]
async fn list_puts_missions_that_started_work_first_latest_first() {
    let app = TestApp::new().await;
    let first = app.mission("Started first").await;
    let idle = app.mission("Never started").await;
    let second = app.mission("Started second").await;
    for (mission, runner) in [(&first, "r1"), (&second, "r2")] {
        app.task(Some(mission), "Work").await;
        let (status, body) = app
            .call(
                "POST",
                "/api/workers/claim",
                &app.worker,
                Some(serde_json::json!({"runner": runner, "maxTasks": 1})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["workers"][0]["task"]["missionId"], mission.as_str());
    }
    let (_, body) = app.call("GET", "/api/missions", &app.admin, None).await;
    let order: Vec<&str> = body["missions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(order, [second.as_str(), first.as_str(), idle.as_str()]);
}

#[tokio::test]
async fn list_carries_progress_and_filters() {
    let app = TestApp::new().await;
    let a = app.mission("Alpha").await;
    let b = app.mission("Beta").await;
    let done = app.task(Some(&a), "Done").await;
    app.set_task_status(&done, "completed").await;
    app.task(Some(&a), "Open").await;
    app.task(Some(&a), "Mission: Alpha").await; // housekeeping: not counted
    let (status, body) = app.call("GET", "/api/missions", &app.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    let missions = body["missions"].as_array().unwrap();
    assert_eq!(missions.len(), 2);
    let alpha = missions.iter().find(|m| m["id"] == a.as_str()).unwrap();
    assert_keys(alpha, &MISSION_KEYS);
    assert_keys(
        alpha,
        &[
            "workspace",
            "tasks",
            "schedule",
            "totalTasks",
            "completedTasks",
            "progress",
            "segments",
            "activeAgents",
            "cronExpression",
            "lastRunAt",
            "nextRunAt",
            "lastDeferralReason",
            "lastDeferredAt",
            "lastActivityAt",
            "completedAt",
        ],
    );
    assert_eq!(
        alpha["workspace"],
        json!({"id": app.workspace, "name": "web"})
    );
    assert_eq!(alpha["tasks"].as_array().unwrap().len(), 3);
    assert_eq!(
        (
            alpha["totalTasks"].as_u64(),
            alpha["completedTasks"].as_u64()
        ),
        (Some(2), Some(1))
    );
    assert_eq!(alpha["progress"], 50);
    assert_eq!(
        alpha["segments"][0],
        json!({"taskId": done, "state": "solid"})
    );
    assert_eq!(alpha["segments"][1]["state"], "empty");

    app.call(
        "PATCH",
        &format!("/api/missions/{b}"),
        &app.admin,
        Some(json!({"status": "paused"})),
    )
    .await;
    let (_, paused) = app
        .call("GET", "/api/missions?status=paused", &app.admin, None)
        .await;
    let ids: Vec<&str> = paused["missions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![b.as_str()]);
    let (_, none) = app
        .call("GET", "/api/missions?workspaceId=other", &app.admin, None)
        .await;
    assert_eq!(none["missions"], json!([]));
    let (status, bad) = app
        .call("GET", "/api/missions?status=done", &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(bad["error"]
        .as_str()
        .unwrap()
        .starts_with("status must be one of"));
}

#[tokio::test]
async fn detail_has_tasks_workspace_schedule_and_computed_fields() {
    let app = TestApp::new().await;
    let m = app.mission("Alpha").await;
    let t = app.task(Some(&m), "Build it").await;
    app.worker_on(&t, "running", None, false).await;
    let (status, d) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_keys(&d, &MISSION_KEYS);
    assert_keys(
        &d,
        &[
            "workspace",
            "tasks",
            "subMissions",
            "schedule",
            "totalTasks",
            "completedTasks",
            "progress",
            "segments",
            "skillSlugs",
            "outputSchema",
            "model",
            "lastHeartbeatStatus",
            "lastHeartbeatAt",
            "evaluationStatus",
            "lastEvaluationAt",
            "evaluationRationale",
            "blocked",
            "blockedReason",
            "blockedByMissionId",
            "blockedByMissionTitle",
        ],
    );
    let task = &d["tasks"][0];
    assert_keys(
        task,
        &[
            "id",
            "title",
            "status",
            "priority",
            "roleSlug",
            "createdAt",
            "updatedAt",
            "kind",
            "mode",
            "category",
            "parentTaskId",
            "creationSource",
            "taskClass",
            "workers",
        ],
    );
    assert_eq!(task["taskClass"], "work");
    assert_eq!(task["workers"][0]["status"], "running");
    assert_eq!(d["segments"][0]["state"], "ghost");
    assert_eq!(d["blocked"], false);
}

#[tokio::test]
async fn patch_updates_fields_and_checks_transitions() {
    let app = TestApp::new().await;
    let m = app.mission("Alpha").await;
    let path = format!("/api/missions/{m}");
    let (status, body) = app
        .call(
            "PATCH",
            &path,
            &app.admin,
            Some(json!({"title": "Beta", "description": "New", "priority": 4})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_keys(&body, &MISSION_KEYS);
    assert!(body.get("tasks").is_none(), "PATCH answers the bare row");
    assert_eq!(
        (
            body["title"].as_str(),
            body["description"].as_str(),
            body["priority"].as_i64()
        ),
        (Some("Beta"), Some("New"), Some(4))
    );
    let (_, body) = app
        .call(
            "PATCH",
            &path,
            &app.admin,
            Some(json!({"description": null})),
        )
        .await;
    assert_eq!(body["description"], Value::Null);
    assert_eq!(body["title"], "Beta", "absent fields are untouched");

    for (to, ok) in [
        ("paused", true),
        ("active", true),
        ("completed", true),
        ("paused", false),
        ("archived", true),
        ("completed", false),
        ("active", true),
    ] {
        let (status, body) = app
            .call("PATCH", &path, &app.admin, Some(json!({"status": to})))
            .await;
        if ok {
            assert_eq!(status, StatusCode::OK, "→ {to}: {body}");
            assert_eq!(body["status"], to);
        } else {
            assert_eq!(status, StatusCode::BAD_REQUEST, "→ {to}");
            assert!(
                body["error"].as_str().unwrap().starts_with("status"),
                "{body}"
            );
        }
    }
    for (body, message) in [
        (
            json!({"status": "budget_exhausted"}),
            "status must be one of",
        ),
        (json!({"title": ""}), "title must be a non-empty string"),
        (json!({"title": null}), "title must be a non-empty string"),
        (json!({"priority": null}), "priority must be an integer"),
        (
            json!({"orchestrationMode": "x"}),
            "orchestrationMode must be",
        ),
    ] {
        let (status, answer) = app
            .call("PATCH", &path, &app.admin, Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{body}: {answer}"
        );
    }
    let (status, answer) = app
        .call(
            "PATCH",
            "/api/missions/nope",
            &app.admin,
            Some(json!({"title": "x"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["error"], "Mission not found");
}

#[tokio::test]
async fn delete_removes_the_mission_and_keeps_its_tasks() {
    let app = TestApp::new().await;
    let m = app.mission("Alpha").await;
    let t = app.task(Some(&m), "Work").await;
    let (status, body) = app
        .call("DELETE", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"success": true}));
    let (status, _) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, task) = app
        .call("GET", &format!("/api/tasks/{t}"), &app.admin, None)
        .await;
    assert_eq!(task["missionId"], Value::Null);
    let (status, _) = app
        .call("DELETE", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn list_and_detail_agree_with_the_shared_progress_rule() {
    let app = TestApp::new().await;
    let m = app.mission("Alpha").await;
    let merged = app.task(Some(&m), "Merged").await;
    app.set_task_status(&merged, "completed").await;
    app.worker_on(&merged, "completed", Some(1), true).await;
    let open = app.task(Some(&m), "Open PR").await;
    app.set_task_status(&open, "completed").await;
    app.worker_on(&open, "completed", Some(2), false).await;
    let failed = app.task(Some(&m), "Failed").await;
    app.set_task_status(&failed, "failed").await;
    let cancelled = app.task(Some(&m), "Cancelled").await;
    app.set_task_status(&cancelled, "cancelled").await;
    app.task(Some(&m), "[friction] noisy").await;
    app.task(Some(&m), "Queued").await;

    let (_, list) = app.call("GET", "/api/missions", &app.admin, None).await;
    let (_, detail) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    let item = &list["missions"][0];
    for key in ["totalTasks", "completedTasks", "progress", "segments"] {
        assert_eq!(
            item[key], detail[key],
            "{key} differs between list and detail"
        );
    }
    // merged, open PR, failed, queued count; cancelled and [friction] do not.
    assert_eq!(detail["totalTasks"], 4);
    assert_eq!(detail["completedTasks"], 1);
    assert_eq!(detail["progress"], 25);
    let states: Vec<&str> = detail["segments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["solid", "half", "notch", "empty"]);
    let parsed: buildd_core::MissionDetail = serde_json::from_value(detail.clone()).unwrap();
    let p = buildd_core::compute_progress(&parsed.mission.status, &parsed.tasks);
    assert_eq!(p.progress, 25);

    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"status": "completed"})),
    )
    .await;
    let (_, list) = app.call("GET", "/api/missions", &app.admin, None).await;
    let (_, detail) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(
        list["missions"][0]["progress"], 100,
        "a completed mission shows 100% on the list"
    );
    assert_eq!(detail["progress"], 100, "and on the detail");
    assert_eq!(detail["completedTasks"], 1, "raw counts stay");
    assert!(list["missions"][0]["completedAt"].is_string());
}

#[tokio::test]
async fn polled_reads_go_out_gzipped_to_clients_that_accept_it() {
    use axum::body::Body;
    use axum::http::{header, Request};
    use http_body_util::BodyExt;
    use std::io::Read;
    use tower::ServiceExt;
    let app = TestApp::new().await;
    let m = app.mission("Compressed").await;
    for i in 0..20 {
        app.task(Some(&m), &format!("Task {i}")).await;
    }
    let get = |path: String, accept: Option<&'static str>| {
        let mut req = Request::get(path).header("Authorization", format!("Bearer {}", app.admin));
        if let Some(accept) = accept {
            req = req.header(header::ACCEPT_ENCODING, accept);
        }
        let router = app.router.clone();
        async move {
            let response = router
                .oneshot(req.body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            assert_eq!(response.headers()[header::VARY], "accept-encoding");
            let encoding = response
                .headers()
                .get(header::CONTENT_ENCODING)
                .map(|v| v.to_str().unwrap().to_string());
            let body = response.into_body().collect().await.unwrap().to_bytes();
            (encoding, body.to_vec())
        }
    };
    for path in [format!("/api/missions/{m}"), "/api/missions".to_string()] {
        let (plain_encoding, plain) = get(path.clone(), None).await;
        assert_eq!(plain_encoding, None);
        // Built now, then served from what is kept: both compressed, both the same JSON.
        for _ in 0..2 {
            let (encoding, gzipped) = get(path.clone(), Some("gzip, deflate, br")).await;
            assert_eq!(encoding.as_deref(), Some("gzip"), "{path}");
            assert!(
                gzipped.len() < plain.len() / 3,
                "{path}: {} of {}",
                gzipped.len(),
                plain.len()
            );
            let mut unzipped = Vec::new();
            flate2::read::GzDecoder::new(&gzipped[..])
                .read_to_end(&mut unzipped)
                .unwrap();
            assert_eq!(unzipped, plain);
        }
        for refusal in ["gzip;q=0, identity", "gzip; Q = 0, *", "br"] {
            let (refused, body) = get(path.clone(), Some(refusal)).await;
            assert_eq!(refused, None, "{refusal}");
            assert_eq!(body, plain);
        }
        let (any, _) = get(path.clone(), Some("br;q=1, *;q=0.5")).await;
        assert_eq!(any.as_deref(), Some("gzip"), "* lets gzip in");
    }
}

#[tokio::test]
async fn polled_reads_carry_an_etag_and_change_with_the_data() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    let app = TestApp::new().await;
    let m = app.mission("Alpha").await;
    let get = |etag: Option<String>| {
        let mut req = Request::get(format!("/api/missions/{m}"))
            .header("Authorization", format!("Bearer {}", app.admin));
        if let Some(tag) = etag {
            req = req.header("If-None-Match", tag);
        }
        app.router.clone().oneshot(req.body(Body::empty()).unwrap())
    };
    let first = get(None).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let tag = first.headers()["etag"].to_str().unwrap().to_string();
    let again = get(Some(tag.clone())).await.unwrap();
    assert_eq!(
        again.status(),
        StatusCode::NOT_MODIFIED,
        "unchanged data: 304"
    );

    // A change anywhere the response is built from gives a new tag and the new data.
    let t = app.task(Some(&m), "New work").await;
    let changed = get(Some(tag.clone())).await.unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), tag);
    let (_, detail) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(detail["tasks"][0]["id"], t.as_str());
    app.worker_on(&t, "running", None, false).await;
    let (_, detail) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(
        detail["tasks"][0]["workers"][0]["status"], "running",
        "worker changes show at once"
    );
    let (_, list) = app.call("GET", "/api/missions", &app.admin, None).await;
    assert_eq!(list["missions"][0]["segments"][0]["state"], "ghost");

    // A kept response is never served to another team.
    let (status, _) = app
        .call("GET", &format!("/api/missions/{m}"), &app.other, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, other_list) = app.call("GET", "/api/missions", &app.other, None).await;
    assert_eq!(other_list["missions"], json!([]));
}

#[tokio::test]
async fn detail_names_the_schedule_sub_missions_and_blocker() {
    let app = TestApp::new().await;
    let parent = app.mission("Parent").await;
    let child = app.mission("Child").await;
    let blocker = app.mission("Blocker").await;
    let mut tx = app.db.write().await.unwrap();
    sql::query("INSERT INTO schedules (id, team_id, name, cron_expression, task_template, enabled, created_at, updated_at) VALUES ('s1', (SELECT team_id FROM missions WHERE id = ?1), 'Mission: Parent', '0 * * * *', '{\"context\":{\"heartbeat\":true}}', 1, 'x', 'x')")
        .bind(&parent)
        .execute(&mut tx)
        .await
        .unwrap();
    sql::query("UPDATE missions SET schedule_id = 's1', depends_on_mission_id = ?2 WHERE id = ?1")
        .bind(&parent)
        .bind(&blocker)
        .execute(&mut tx)
        .await
        .unwrap();
    sql::query("UPDATE missions SET parent_mission_id = ?1 WHERE id = ?2")
        .bind(&parent)
        .bind(&child)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (_, d) = app
        .call("GET", &format!("/api/missions/{parent}"), &app.admin, None)
        .await;
    assert_eq!(d["schedule"]["id"], "s1");
    assert_eq!(d["schedule"]["enabled"], true);
    assert_eq!(d["schedule"]["taskTemplate"]["context"]["heartbeat"], true);
    assert_eq!(
        d["subMissions"],
        json!([{"id": child, "title": "Child", "status": "active"}])
    );
    assert_eq!(d["blocked"], true);
    assert_eq!(d["blockedByMissionId"], blocker.as_str());
    assert_eq!(
        d["blockedReason"],
        "Waiting for mission \"Blocker\" to merge its PRs"
    );
    // Pausing turns the check-ins off; resuming turns them back on.
    app.call(
        "PATCH",
        &format!("/api/missions/{parent}"),
        &app.admin,
        Some(json!({"status": "paused"})),
    )
    .await;
    let (_, d) = app
        .call("GET", &format!("/api/missions/{parent}"), &app.admin, None)
        .await;
    assert_eq!(d["schedule"]["enabled"], false);
    app.call(
        "PATCH",
        &format!("/api/missions/{parent}"),
        &app.admin,
        Some(json!({"status": "active"})),
    )
    .await;
    let (_, d) = app
        .call("GET", &format!("/api/missions/{parent}"), &app.admin, None)
        .await;
    assert_eq!(d["schedule"]["enabled"], true);
}

#[tokio::test]
async fn a_mission_is_worked_in_dispatch_or_interactive_mode() {
    let app = TestApp::new().await;
    let id = app.mission("Pairing").await;
    let (_, m) = app
        .call("GET", &format!("/api/missions/{id}"), &app.admin, None)
        .await;
    assert_eq!(m["mode"], "dispatch");
    let path = format!("/api/missions/{id}");
    let (status, body) = app
        .call(
            "PATCH",
            &path,
            &app.admin,
            Some(json!({"mode": "interactive"})),
        )
        .await;
    assert_eq!(
        (status, body["mode"].as_str()),
        (StatusCode::OK, Some("interactive"))
    );
    for bad in [json!("solo"), json!(null), json!(3)] {
        let (status, body) = app
            .call("PATCH", &path, &app.admin, Some(json!({"mode": bad})))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            body["error"].as_str().unwrap().starts_with("mode must be"),
            "{body}"
        );
    }
    let (status, created) = app
        .call("POST", "/api/missions", &app.admin,
              Some(json!({"title": "Live", "workspaceId": app.workspace, "mode": "interactive", "isHeartbeat": false})))
        .await;
    assert_eq!(
        (status, created["mode"].as_str()),
        (StatusCode::CREATED, Some("interactive"))
    );
}

/// The mission page reuses its task list only while neither its tasks nor their workers moved.
#[tokio::test]
async fn the_mission_page_shows_every_change_to_its_tasks_and_workers() {
    let app = TestApp::new().await;
    let m = app.mission("Kept tasks").await;
    let other = app.mission("Elsewhere").await;
    let t = app.task(Some(&m), "Ship it").await;
    let detail = app.mission_json(&m).await;
    assert_eq!(detail["tasks"][0]["status"], "pending");
    // Something else changes: the page is rebuilt, its tasks are the same.
    app.task(Some(&other), "Unrelated").await;
    assert_eq!(app.mission_json(&m).await["tasks"], detail["tasks"]);
    // Its task is claimed (a task and a worker change), then its worker reports a PR.
    let worker = app.claim_task(&t).await;
    assert_eq!(app.mission_json(&m).await["tasks"][0]["status"], "assigned");
    let (status, _) = app
        .report(
            &worker,
            json!({"status": "running", "prNumber": 7,
                                "prUrl": "https://github.com/acme/web/pull/7"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let detail = app.mission_json(&m).await;
    assert_eq!(detail["tasks"][0]["workers"][0]["prNumber"], 7);
    assert_eq!(detail["tasks"][0]["workers"][0]["status"], "running");

    // Among many, the one that changed is read again; the rest keep their place.
    let more = [
        app.task(Some(&m), "Second").await,
        app.task(Some(&m), "Third").await,
    ];
    let before = app.mission_json(&m).await["tasks"].clone();
    let ids = |tasks: &Value| -> Vec<String> {
        tasks
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&before), [more[1].clone(), more[0].clone(), t.clone()]);
    app.set_task_status(&more[0], "cancelled").await;
    let after = app.mission_json(&m).await["tasks"].clone();
    assert_eq!(ids(&after), ids(&before));
    assert_eq!(after[1]["status"], "cancelled");
    assert_eq!(after[0], before[0]);
    assert_eq!(after[2], before[2]);
}

#[tokio::test]
async fn the_list_omits_results_it_does_not_carry_and_the_detail_says_null() {
    let app = TestApp::new().await;
    let mission = app.mission("Shapes").await;
    let task = app.task(Some(&mission), "Work").await;
    let find = |tasks: &serde_json::Value| {
        tasks
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == task.as_str())
            .cloned()
            .unwrap()
    };
    let (_, list) = app.call("GET", "/api/missions", &app.admin, None).await;
    let listed = list["missions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == mission.as_str())
        .unwrap();
    assert!(
        find(&listed["tasks"]).get("result").is_none(),
        "as Buildd's list"
    );
    let detail = app.mission_json(&mission).await;
    assert_eq!(
        find(&detail["tasks"]).get("result"),
        Some(&serde_json::Value::Null),
        "as Buildd's detail"
    );
}

#[tokio::test]
async fn another_teams_writes_never_move_an_etag() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    let app = TestApp::new().await;
    let m = app.mission("Ours").await;
    let get = |path: String, etag: Option<String>| {
        let mut req = Request::get(path).header("Authorization", format!("Bearer {}", app.admin));
        if let Some(tag) = etag {
            req = req.header("If-None-Match", tag);
        }
        app.router.clone().oneshot(req.body(Body::empty()).unwrap())
    };
    for path in ["/api/missions".to_string(), format!("/api/missions/{m}")] {
        let first = get(path.clone(), None).await.unwrap();
        let tag = first.headers()["etag"].to_str().unwrap().to_string();
        // The other team writes: missions, tasks, their workspace.
        let (status, _) = app
            .call(
                "POST",
                "/api/missions",
                &app.other,
                Some(json!({"title": "Theirs"})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
        let again = get(path.clone(), Some(tag.clone())).await.unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(again.headers()["etag"].to_str().unwrap(), tag, "{path}");
    }
}
