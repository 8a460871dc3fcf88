mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

#[tokio::test]
async fn create_answers_the_bare_task() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let (status, t) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(json!({"title": "Add /healthz", "description": "d", "missionId": m, "priority": 2,
                        "workspaceId": "acme/web", "outputRequirement": "pr_required", "roleSlug": "builder",
                        "context": {"baseBranch": "main"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_keys(
        &t,
        &[
            "id",
            "workspaceId",
            "title",
            "description",
            "context",
            "status",
            "priority",
            "mode",
            "taskClass",
            "parentTaskId",
            "dependsOn",
            "result",
            "missionId",
            "roleSlug",
            "outputRequirement",
            "createdAt",
            "updatedAt",
            "subjectIntakeOutcome",
        ],
    );
    assert_eq!(t["workspaceId"], app.workspace.as_str(), "resolved by repo");
    assert_eq!(
        (
            t["status"].as_str(),
            t["mode"].as_str(),
            t["taskClass"].as_str()
        ),
        (Some("pending"), Some("execution"), Some("work"))
    );
    assert_eq!(t["context"], json!({"baseBranch": "main"}));
    assert_eq!(
        t["subjectIntakeOutcome"],
        json!({"action": "created", "taskId": t["id"]})
    );

    let (_, housekeeping) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(json!({"title": "Aggregate results: plan"})),
        )
        .await;
    assert_eq!(
        housekeeping["taskClass"], "bookkeeping",
        "one workspace: resolved without workspaceId"
    );
}

#[tokio::test]
async fn create_keeps_a_known_category_and_drops_an_unknown_one() {
    let app = TestApp::new().await;
    for (sent, kept) in [("bug", json!("bug")), ("urgent-ish", Value::Null)] {
        let (status, t) = app
            .call(
                "POST",
                "/api/tasks",
                &app.admin,
                Some(json!({"title": format!("Task {sent}"), "category": sent})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{t}");
        assert_eq!(t["category"], kept, "{sent}");
        let id = t["id"].as_str().unwrap();
        let (_, read) = app
            .call("GET", &format!("/api/tasks/{id}"), &app.admin, None)
            .await;
        assert_eq!(read["category"], kept, "{sent} as read back");
    }
}

#[tokio::test]
async fn create_validates_each_field() {
    let app = TestApp::new().await;
    let other_ws = app
        .call(
            "POST",
            "/api/workspaces",
            &app.admin,
            Some(json!({"name": "api"})),
        )
        .await
        .1;
    let other_ws = other_ws["workspace"]["id"].as_str().unwrap().to_string();
    let foreign = app.task(None, "In web").await;
    let cases = [
        (json!({}), StatusCode::BAD_REQUEST, "Title is required"),
        (
            json!({"title": "x"}),
            StatusCode::BAD_REQUEST,
            "workspaceId is required",
        ),
        (
            json!({"title": "x", "workspaceId": "nowhere"}),
            StatusCode::BAD_REQUEST,
            "No workspace found matching \"nowhere\"",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "dependsOn": [foreign]}),
            StatusCode::BAD_REQUEST,
            "dependsOn references unknown tasks in this workspace",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "dependsOn": "a"}),
            StatusCode::BAD_REQUEST,
            "dependsOn must be an array of strings",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "mode": "planning"}),
            StatusCode::BAD_REQUEST,
            "mode must be \"execution\"",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "outputRequirement": "always"}),
            StatusCode::BAD_REQUEST,
            "outputRequirement must be one of",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "missionId": "nope"}),
            StatusCode::NOT_FOUND,
            "Mission not found",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "parentTaskId": "nope"}),
            StatusCode::BAD_REQUEST,
            "parentTaskId references an unknown task",
        ),
        (
            json!({"title": "x", "workspaceId": other_ws, "context": []}),
            StatusCode::BAD_REQUEST,
            "context must be an object",
        ),
    ];
    for (body, code, message) in cases {
        let (status, answer) = app
            .call("POST", "/api/tasks", &app.admin, Some(body.clone()))
            .await;
        assert_eq!(status, code, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{body}: {answer}"
        );
    }
}

#[tokio::test]
async fn list_applies_filters_and_paginates() {
    let app = TestApp::new().await;
    let m1 = app.mission("One").await;
    let m2 = app.mission("Two").await;
    let a = app.task(Some(&m1), "a").await;
    let b = app.task(Some(&m1), "b").await;
    let c = app.task(Some(&m2), "c").await;
    app.set_task_status(&b, "completed").await;

    let ids = |v: &Value| -> Vec<String> {
        v["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (status, all) = app.call("GET", "/api/tasks", &app.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        ids(&all),
        vec![c.clone(), b.clone(), a.clone()],
        "newest first"
    );
    assert_eq!(
        all["tasks"][0]["workspace"],
        json!({"id": app.workspace, "name": "web", "repo": "acme/web"})
    );
    assert!(all["budgetWindows"].is_object());

    let (_, by_mission) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={m1}"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(ids(&by_mission), vec![b.clone(), a.clone()]);
    let (_, pending) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={m1}&status=pending"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(ids(&pending), vec![a.clone()]);
    let (_, active) = app
        .call("GET", "/api/tasks?status=active", &app.admin, None)
        .await;
    assert_eq!(ids(&active), vec![c.clone(), a.clone()]);
    let (_, several) = app
        .call(
            "GET",
            "/api/tasks?status=completed,pending",
            &app.admin,
            None,
        )
        .await;
    assert_eq!(ids(&several).len(), 3);
    let (_, none) = app
        .call("GET", "/api/tasks?workspaceId=elsewhere", &app.admin, None)
        .await;
    assert_eq!(ids(&none), Vec::<String>::new());

    let (_, page) = app
        .call("GET", "/api/tasks?limit=2", &app.admin, None)
        .await;
    assert_eq!(page["total"], 3);
    assert_eq!(page["pendingCount"], 2);
    assert_eq!(page["hasMore"], true);
    assert_eq!(page["tasks"].as_array().unwrap().len(), 2);
    assert_keys(
        &page["tasks"][0],
        &[
            "id",
            "workspaceId",
            "title",
            "status",
            "priority",
            "category",
            "descriptionPreview",
        ],
    );
    assert_eq!(page["tasks"][0]["status"], "pending", "pending first");
    let (_, rest) = app
        .call("GET", "/api/tasks?limit=2&offset=2", &app.admin, None)
        .await;
    assert_eq!(rest["hasMore"], false);
    assert_eq!(ids(&rest), vec![b.clone()]);

    for (query, message) in [
        ("status=doing", "status must be one of"),
        ("limit=ten", "limit must be an integer from 1 to 200"),
        ("limit=0", "limit must be an integer from 1 to 200"),
        ("limit=-1", "limit must be an integer from 1 to 200"),
        ("limit=201", "limit must be an integer from 1 to 200"),
        (
            "offset=x&limit=1",
            "offset must be an integer of at least 0",
        ),
        (
            "offset=-3&limit=1",
            "offset must be an integer of at least 0",
        ),
    ] {
        let (status, answer) = app
            .call("GET", &format!("/api/tasks?{query}"), &app.admin, None)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(message),
            "{answer}"
        );
    }
}

#[tokio::test]
async fn detail_adds_workspace_mission_workers_and_pr() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let t = app.task(Some(&m), "T").await;
    app.worker_on(&t, "completed", Some(42), false).await;
    let (status, task) = app
        .call(
            "GET",
            &format!("/api/tasks/{t}?include=workers"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        task["mission"],
        json!({"id": m, "title": "M", "status": "active"})
    );
    assert_eq!(task["workspace"]["repo"], "acme/web");
    for secret in ["webhookConfig", "discordConfig", "slackConfig"] {
        assert_eq!(task["workspace"][secret], Value::Null);
    }
    assert_eq!(task["prNumber"], 42);
    assert_eq!(task["prUrl"], "https://github.com/acme/web/pull/42");
    assert_eq!(task["workers"][0]["prNumber"], 42);
    let (_, plain) = app
        .call("GET", &format!("/api/tasks/{t}"), &app.admin, None)
        .await;
    assert!(plain.get("workers").is_none());
    let (status, missing) = app.call("GET", "/api/tasks/nope", &app.admin, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(missing["error"], "Task not found");
}

#[tokio::test]
async fn patch_updates_and_guards_status_and_dependencies() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let a = app.task(Some(&m), "a").await;
    let b = app.task(Some(&m), "b").await;
    let path_a = format!("/api/tasks/{a}");
    let (status, body) = app
        .call(
            "PATCH",
            &path_a,
            &app.admin,
            Some(json!({"title": "A", "priority": 5, "dependsOn": [b]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (body["title"].as_str(), body["priority"].as_i64()),
        (Some("A"), Some(5))
    );
    assert_eq!(body["dependsOn"], json!([b]));

    let (status, cycle) = app
        .call(
            "PATCH",
            &format!("/api/tasks/{b}"),
            &app.admin,
            Some(json!({"dependsOn": [a]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        cycle["error"],
        format!("dependsOn would create a cycle: {b} → {a} → {b}")
    );
    let (status, own) = app
        .call(
            "PATCH",
            &path_a,
            &app.admin,
            Some(json!({"dependsOn": [a]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(own["error"], "dependsOn: a task cannot depend on itself");

    let (status, bad) = app
        .call(
            "PATCH",
            &path_a,
            &app.admin,
            Some(json!({"status": "assigned"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        bad["error"],
        "Invalid status. Allowed: pending, completed, failed, cancelled"
    );

    app.worker_on(&a, "running", None, false).await;
    let (status, conflict) = app
        .call(
            "PATCH",
            &path_a,
            &app.admin,
            Some(json!({"status": "completed"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(conflict["error"]
        .as_str()
        .unwrap()
        .starts_with("Cannot change status directly"));
    let (status, cancelled) = app
        .call(
            "PATCH",
            &path_a,
            &app.admin,
            Some(json!({"status": "cancelled"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cancelled["status"], "cancelled");
}

#[tokio::test]
async fn new_work_reopens_a_completed_mission() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"status": "completed"})),
    )
    .await;
    app.task(Some(&m), "Follow-up").await;
    let (_, mission) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(mission["status"], "active");
}
