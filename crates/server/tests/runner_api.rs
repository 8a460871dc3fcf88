//! The endpoints Buildd's runner and MCP server call besides claims and reports: the key's
//! account, heartbeats, one worker, tasks filed and deleted by any key, PRs opened with
//! `create_pr`, a workspace's git configuration, and JSON answers for unknown routes.

mod common;

use axum::http::StatusCode;
use buildd_core::worker::MILESTONES_KEPT;
use buildd_core::AccountLevel;
use buildd_server::keys;
use common::*;
use serde_json::{json, Value};

/// A second worker key of the test team.
async fn second_worker_key(app: &TestApp) -> String {
    let mut tx = app.db.write().await.unwrap();
    let team = keys::ensure_team(&mut tx, "Team A").await.unwrap();
    let key = keys::create_key(&mut tx, &team, &AccountLevel::Worker, "w2")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    key
}

/// A GET with the given headers, through the router; the status and the response headers.
async fn get_with(
    app: &TestApp,
    path: &str,
    headers: &[(&str, String)],
) -> (StatusCode, axum::http::HeaderMap) {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    let mut req = Request::get(path);
    for (name, value) in headers {
        req = req.header(*name, value);
    }
    let res = app
        .router
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    (res.status(), res.headers().clone())
}

async fn open_pr(app: &TestApp, key: &str, body: Value) -> (StatusCode, Value) {
    app.call("POST", "/api/github/pr", key, Some(body)).await
}

#[tokio::test]
async fn accounts_me_names_the_keys_level() {
    let app = TestApp::new().await;
    for (key, level, name) in [
        (&app.admin, "admin", "a"),
        (&app.worker, "worker", "w"),
        (&app.trigger, "trigger", "t"),
    ] {
        let (status, body) = app.call("GET", "/api/accounts/me", key, None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["level"], level);
        assert_eq!(body["name"], name);
        assert_eq!(body["authType"], "api");
        assert_eq!(body["type"], "service");
        assert!(body["maxConcurrentWorkers"].as_i64().unwrap() > 0);
        assert!(body["id"].as_str().is_some_and(|id| !id.is_empty()));
    }
    let (_, a) = app.call("GET", "/api/accounts/me", &app.admin, None).await;
    let (_, w) = app.call("GET", "/api/accounts/me", &app.worker, None).await;
    let (_, other) = app.call("GET", "/api/accounts/me", &app.other, None).await;
    assert_eq!(a["teamId"], w["teamId"]);
    assert_ne!(a["teamId"], other["teamId"]);
    assert_ne!(a["id"], w["id"]);
    let (status, body) = app.call("GET", "/api/accounts/me", NO_KEY, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(body["error"].is_string());
}

#[tokio::test]
async fn a_heartbeat_counts_the_work_a_claim_could_take() {
    let app = TestApp::new().await;
    let beat = |key: String, body: Value| {
        let app = &app;
        async move {
            app.call("POST", "/api/workers/heartbeat", &key, Some(body))
                .await
        }
    };
    let (status, body) = beat(app.worker.clone(), json!({"activeWorkerCount": 0})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "localUiUrl is required");
    let (status, body) = beat(
        app.worker.clone(),
        json!({"localUiUrl": "headless://h", "activeWorkerCount": "two"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("activeWorkerCount"));

    let body = json!({"localUiUrl": "headless://h", "activeWorkerCount": 0,
                      "environment": {"tools": [{"name": "git"}]}});
    let (status, answer) = beat(app.worker.clone(), body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer, json!({"ok": true, "pendingTaskCount": 0}));

    let mission = app.mission("M").await;
    let first = app.task(Some(&mission), "first").await;
    let (status, _) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(json!({"title": "after first", "workspaceId": app.workspace,
                        "missionId": mission, "dependsOn": [first]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // The dependent cannot start yet: one task waits for a runner.
    let (_, answer) = beat(app.worker.clone(), body.clone()).await;
    assert_eq!(answer["pendingTaskCount"], 1);
    // Another team's runner hears of none of it.
    let (_, answer) = beat(app.other.clone(), body.clone()).await;
    assert_eq!(answer["pendingTaskCount"], 0);
    app.complete_task(&first, json!({"summary": "done"})).await;
    let (_, answer) = beat(app.worker.clone(), body).await;
    assert_eq!(answer["pendingTaskCount"], 1);
}

#[tokio::test]
async fn a_worker_reads_as_its_runner_reconciles_it() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let task = app.task(Some(&mission), "T").await;
    let worker = app.claim_task(&task).await;
    let path = format!("/api/workers/{worker}");
    let (status, body) = app.call("GET", &path, &app.worker, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["id"], worker);
    assert_eq!(body["taskId"], task);
    assert_eq!(body["status"], "idle");
    assert_eq!(body["task"]["id"], task);
    assert_eq!(body["task"]["status"], "assigned");
    assert_eq!(body["task"]["missionId"], mission);
    assert_eq!(body["workspace"]["id"], app.workspace);
    assert!(body.get("error").is_none_or(Value::is_null), "{body}");

    // Another account of the team: Buildd's 403; another team, or no such worker: 404.
    let (status, body) = app.call("GET", &path, &app.admin, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("Forbidden"))
    );
    let (status, body) = app.call("GET", &path, &app.other, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("Worker not found"))
    );
    let (status, _) = app
        .call("GET", "/api/workers/nope", &app.worker, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, _) = app
        .report(&worker, json!({"status": "completed", "summary": "ok"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, body) = app.call("GET", &path, &app.worker, None).await;
    assert_eq!(body["status"], "completed");
    assert_eq!(body["task"]["status"], "completed");
}

#[tokio::test]
async fn any_key_of_the_team_files_tasks_and_says_who_filed_them() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    for key in [&app.worker, &app.trigger] {
        let (status, body) = app
            .call(
                "POST",
                "/api/tasks",
                key,
                Some(json!({"title": "filed", "workspaceId": app.workspace,
                            "missionId": mission, "creationSource": "mcp"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["creationSource"], "mcp");
        assert_eq!(body["status"], "pending");
        let (_, me) = app.call("GET", "/api/accounts/me", key, None).await;
        assert_eq!(body["createdByAccountId"], me["id"]);
    }
    // An agent names its worker: the new task is a child of the one it works on.
    let parent = app.task(Some(&mission), "parent").await;
    let worker = app.claim_task(&parent).await;
    let (status, body) = app
        .call(
            "POST",
            "/api/tasks",
            &app.worker,
            Some(json!({"title": "follow-up", "workspaceId": app.workspace,
                        "createdByWorkerId": worker, "creationSource": "nonsense"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["createdByWorkerId"], worker);
    assert_eq!(body["parentTaskId"], parent);
    assert_eq!(body["creationSource"], "api");
    // Another account's worker is not this key's to name.
    let other_worker_key = second_worker_key(&app).await;
    let (status, body) = app
        .call(
            "POST",
            "/api/tasks",
            &other_worker_key,
            Some(json!({"title": "x", "workspaceId": app.workspace, "createdByWorkerId": worker})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .starts_with("createdByWorkerId"));
    let (status, _) = app
        .call("POST", "/api/tasks", NO_KEY, Some(json!({"title": "x"})))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn deleting_a_task_follows_who_may_and_what_runs() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let first = app.task(Some(&mission), "first").await;
    let (_, dependent) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(
                json!({"title": "after", "workspaceId": app.workspace, "missionId": mission,
                        "dependsOn": [first]}),
            ),
        )
        .await;
    let dependent = dependent["id"].as_str().unwrap().to_string();
    let path = format!("/api/tasks/{first}");
    let (status, _) = app.call("DELETE", &path, &app.trigger, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app.call("DELETE", &path, &app.worker, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = app.call("DELETE", &path, &app.other, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = app
        .call("DELETE", &format!("{path}?force=maybe"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().starts_with("force"));

    // A task a worker is on needs force, and its worker goes with it.
    let worker = app.claim_task(&first).await;
    let (status, body) = app.call("DELETE", &path, &app.admin, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("force=true"),
        "{body}"
    );
    assert_eq!(app.task_json(&first).await["status"], "assigned");
    let (status, body) = app
        .call("DELETE", &format!("{path}?force=true"), &app.admin, None)
        .await;
    assert_eq!((status, body), (StatusCode::OK, json!({"success": true})));
    let (status, _) = app.call("GET", &path, &app.admin, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app
        .call("GET", &format!("/api/workers/{worker}"), &app.worker, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.report(&worker, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // What waited for it no longer does.
    assert_eq!(app.task_json(&dependent).await["dependsOn"], json!([]));
    let (status, body) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r", "taskId": dependent})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["workers"][0]["taskId"], dependent, "{body}");

    // A worker key deletes the tasks its account filed.
    let (_, filed) = app
        .call(
            "POST",
            "/api/tasks",
            &app.worker,
            Some(json!({"title": "mine", "workspaceId": app.workspace})),
        )
        .await;
    let mine = format!("/api/tasks/{}", filed["id"].as_str().unwrap());
    let (status, _) = app.call("DELETE", &mine, &app.worker, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.call("GET", &mine, &app.worker, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn create_pr_records_the_pr_and_the_rails_take_it() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let (_, task) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(json!({"title": "Add healthz", "workspaceId": app.workspace,
                        "missionId": mission, "outputRequirement": "pr_required"})),
        )
        .await;
    let task = task["id"].as_str().unwrap().to_string();
    let worker = app.claim_task(&task).await;

    let (status, body) = open_pr(&app, &app.worker, json!({"title": "x", "head": "b"})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("workerId required"))
    );
    let (status, body) =
        open_pr(&app, &app.worker, json!({"workerId": worker, "title": "x"})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (
            StatusCode::BAD_REQUEST,
            Some("title and head branch required")
        )
    );
    let (status, _) = open_pr(
        &app,
        &app.worker,
        json!({"workerId": "nope", "title": "x", "head": "b"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = open_pr(
        &app,
        &app.other,
        json!({"workerId": worker, "title": "x", "head": "b"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let other_worker_key = second_worker_key(&app).await;
    let (status, body) = open_pr(
        &app,
        &other_worker_key,
        json!({"workerId": worker, "title": "x", "head": "b"}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = open_pr(
        &app,
        &app.trigger,
        json!({"workerId": worker, "title": "x", "head": "b"}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = open_pr(
        &app,
        &app.worker,
        json!({"workerId": worker, "title": "x", "head": "b", "prUrl": "https://github.com/acme/web"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().starts_with("prUrl"),
        "{body}"
    );
    // None of the refusals recorded anything.
    let (_, prs) = app.call("GET", "/api/prs", &app.admin, None).await;
    assert_eq!(prs["prs"], json!([]));

    let body = json!({"workerId": worker, "title": "Add /healthz", "head": "buildd/add-healthz",
                      "body": "Adds GET /healthz"});
    let (status, opened) = open_pr(&app, &app.worker, body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert_eq!(opened["ok"], true);
    assert_eq!(opened["pr"]["number"], 1);
    assert_eq!(opened["pr"]["url"], "https://github.com/acme/web/pull/1");
    assert_eq!(opened["pr"]["state"], "open");
    assert_eq!(opened["pr"]["title"], "Add /healthz");
    let (_, again) = open_pr(&app, &app.worker, body).await;
    assert_eq!(again["deduplicated"], true);
    assert_eq!(again["pr"]["number"], 1);

    let pr = app.pr_json(&mission, 1).await;
    assert_eq!(pr["title"], "Add /healthz");
    assert_eq!(pr["headBranch"], "buildd/add-healthz");
    assert_eq!(pr["baseBranch"], "main");
    assert_eq!(pr["taskId"], task);
    assert_eq!(pr["state"], "open");
    let (_, w) = app
        .call("GET", &format!("/api/workers/{worker}"), &app.worker, None)
        .await;
    assert_eq!(
        (w["prNumber"].as_i64(), w["prUrl"].as_str()),
        (Some(1), Some("https://github.com/acme/web/pull/1"))
    );

    // The pr_required step completes with the PR it opened, naming its head commit.
    let (status, body) = app
        .report(
            &worker,
            json!({"status": "completed", "summary": "done", "lastCommitSha": "abc123"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.task_json(&task).await["result"]["prNumber"], 1);
    let pr = app.pr_json(&mission, 1).await;
    assert_eq!(pr["headSha"], "abc123");
    // CI passes for that commit, and a person may merge it.
    let (status, _) = app
        .check_run(1, "abc123", "completed", Some("success"))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = app.merge_pr(1, &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.pr_json(&mission, 1).await["state"], "merged");
}

#[tokio::test]
async fn create_pr_takes_the_number_of_a_given_address() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let task = app.task(Some(&mission), "T").await;
    let worker = app.claim_task(&task).await;
    let (status, opened) = open_pr(
        &app,
        &app.worker,
        json!({"workerId": worker, "title": "T", "head": "t", "base": "develop",
               "prUrl": "https://github.com/acme/web/pull/42"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert_eq!(opened["pr"]["number"], 42);
    let pr = app.pr_json(&mission, 42).await;
    assert_eq!(pr["url"], "https://github.com/acme/web/pull/42");
    assert_eq!(pr["baseBranch"], "develop");
}

#[tokio::test]
async fn a_workspace_config_is_its_git_settings() {
    let app = TestApp::new().await;
    let path = format!("/api/workspaces/{}/config", app.workspace);
    let (status, _) = app
        .call(
            "PATCH",
            &format!("/api/workspaces/{}", app.workspace),
            &app.admin,
            Some(json!({"gitConfig": {"defaultBranch": "trunk"}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    for key in [&app.admin, &app.worker, &app.trigger] {
        let (status, body) = app.call("GET", &path, key, None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["gitConfig"]["defaultBranch"], "trunk");
        assert!(body["configStatus"].is_string(), "{body}");
    }
    let (status, body) = app.call("GET", &path, &app.other, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("Workspace not found"))
    );
    let (status, _) = app.call("GET", &path, NO_KEY, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods_answer_json() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    for (method, path, status) in [
        ("GET", "/api/nothing".to_string(), StatusCode::NOT_FOUND),
        ("GET", "/api/".to_string(), StatusCode::NOT_FOUND),
        (
            "PUT",
            format!("/api/missions/{mission}"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "DELETE",
            "/api/workers/heartbeat".to_string(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "GET",
            "/api/workers/claim".to_string(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let (got, body) = app.call(method, &path, &app.admin, None).await;
        assert_eq!(got, status, "{method} {path}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{method} {path}: {body}"
        );
    }
}

#[tokio::test]
async fn the_key_decides_who_wrote_a_note() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let notes = format!("/api/missions/{mission}/notes");
    for key in [&app.worker, &app.admin] {
        let (status, body) = app
            .call(
                "POST",
                &notes,
                key,
                Some(
                    json!({"type": "decision", "title": "Reviewer approved PR #7",
                            "authorType": "system"}),
                ),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body["error"].as_str().unwrap().starts_with("authorType"));
    }
    // A worker of another team, or none: 404 naming the field, and nothing stored.
    let task = app.task(Some(&mission), "T").await;
    let worker = app.claim_task(&task).await;
    let (other_mission, _) = app
        .call(
            "POST",
            "/api/missions",
            &app.other,
            Some(json!({"title": "theirs", "orchestrationMode": "manual"})),
        )
        .await;
    assert_eq!(other_mission, StatusCode::CREATED);
    for id in ["no-such-worker", worker.as_str()] {
        let key = if id == worker {
            &app.other
        } else {
            &app.worker
        };
        let path = if id == worker {
            let (_, list) = app.call("GET", "/api/missions", &app.other, None).await;
            format!(
                "/api/missions/{}/notes",
                list["missions"][0]["id"].as_str().unwrap()
            )
        } else {
            notes.clone()
        };
        let (status, body) = app
            .call(
                "POST",
                &path,
                key,
                Some(json!({"type": "update", "title": "hi", "workerId": id})),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
        assert!(
            body["error"].as_str().unwrap().starts_with("workerId"),
            "{body}"
        );
    }
    let (_, page) = app.call("GET", &notes, &app.admin, None).await;
    assert_eq!(page["notes"], json!([]));
    // The agent's own worker is taken.
    let (status, body) = app
        .call(
            "POST",
            &notes,
            &app.worker,
            Some(json!({"type": "update", "title": "hi", "workerId": worker})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        (body["authorType"].as_str(), body["workerId"].as_str()),
        (Some("agent"), Some(worker.as_str()))
    );
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let app = TestApp::new().await;
    for (scheme, status) in [
        ("bearer", StatusCode::OK),
        ("BEARER", StatusCode::OK),
        ("Basic", StatusCode::UNAUTHORIZED),
    ] {
        let auth = format!("{scheme} {}", app.admin);
        let (got, _) = get_with(&app, "/api/missions", &[("Authorization", auth)]).await;
        assert_eq!(got, status, "{scheme}");
    }
}

#[tokio::test]
async fn an_etag_never_answers_for_a_mission_the_key_cannot_see() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let path = format!("/api/missions/{mission}");
    let auth = |key: &str| ("Authorization", format!("Bearer {key}"));
    let (status, headers) = get_with(&app, &path, &[auth(&app.admin)]).await;
    assert_eq!(status, StatusCode::OK);
    // One content type, not the body's and the JSON one.
    assert_eq!(headers.get_all("content-type").iter().count(), 1);
    assert_eq!(headers["content-type"], "application/json");
    let tag = headers["etag"].to_str().unwrap().to_string();
    let when = |key: &str| [auth(key), ("If-None-Match", tag.clone())];
    let (status, _) = get_with(&app, &path, &when(&app.admin)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (status, _) = get_with(&app, &path, &when(&app.other)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get_with(&app, "/api/missions/no-such-mission", &when(&app.admin)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_worker_keeps_the_milestones_it_reports() {
    let app = TestApp::new().await;
    let task = app.task(None, "T").await;
    let worker = app.claim_task(&task).await;
    let path = format!("/api/workers/{worker}");
    let (status, body) = app.report(&worker, json!({"milestones": "started"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "milestones must be an array of objects");
    let step = |label: &str| json!({"type": "status", "label": label, "ts": 1});
    let (status, _) = app
        .report(
            &worker,
            json!({"status": "running", "milestones": [step("a"), step("b")]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .report(&worker, json!({"appendMilestones": [step("c")]}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, read) = app.call("GET", &path, &app.worker, None).await;
    let labels: Vec<&str> = read["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["a", "b", "c"]);
    // The newest are kept, and how many were reported in all is counted.
    let over = MILESTONES_KEPT + 10;
    let many: Vec<Value> = (0..over).map(|i| step(&format!("m{i}"))).collect();
    app.report(&worker, json!({"appendMilestones": many})).await;
    let (_, read) = app.call("GET", &path, &app.worker, None).await;
    let kept = read["milestones"].as_array().unwrap();
    assert_eq!(kept.len(), MILESTONES_KEPT);
    assert_eq!(kept[MILESTONES_KEPT - 1]["label"], format!("m{}", over - 1));
    assert_eq!(kept[0]["label"], "m10");
    let (_, task) = app
        .call(
            "GET",
            &format!(
                "/api/tasks/{}?include=workers",
                read["taskId"].as_str().unwrap()
            ),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(task["workers"][0]["milestonesReported"], over as i64 + 3);
}

#[tokio::test]
async fn a_runner_takes_a_task_over_and_the_old_worker_stops() {
    let app = TestApp::new().await;
    let mission = app.mission("M").await;
    let task = app.task(Some(&mission), "stuck").await;
    let path = format!("/api/tasks/{task}/reassign");
    let worker = app.claim_task(&task).await;
    let other_runner = second_worker_key(&app).await;

    // Without force, an assigned task stays, and the answer says whether force would move it.
    let (status, body) = app.call("POST", &path, &app.worker, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (body["reassigned"].as_bool(), body["canTakeover"].as_bool()),
        (Some(false), Some(true)),
        "{body}"
    );
    let (_, body) = app.call("POST", &path, &other_runner, None).await;
    assert_eq!(body["canTakeover"], false, "{body}");
    // Another account's live claim is not a worker key's to take.
    let (status, body) = app
        .call("POST", &format!("{path}?force=true"), &other_runner, None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["reassigned"], false);
    assert!(body["error"].as_str().unwrap().contains("admin"), "{body}");
    assert_eq!(app.task_json(&task).await["status"], "assigned");
    for (key, expected) in [
        (&app.trigger, StatusCode::FORBIDDEN),
        (&app.other, StatusCode::NOT_FOUND),
    ] {
        let (status, body) = app
            .call("POST", &format!("{path}?force=true"), key, None)
            .await;
        assert_eq!(status, expected, "{body}");
    }
    let (status, body) = app
        .call("POST", &format!("{path}?force=yes"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().starts_with("force"),
        "{body}"
    );

    // The admin takes it over: pending, unclaimed, its worker failed, its late report refused.
    let (status, body) = app
        .call("POST", &format!("{path}?force=true"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (body["reassigned"].as_bool(), body["wasAssigned"].as_bool()),
        (Some(true), Some(true))
    );
    let read = app.task_json(&task).await;
    assert_eq!(
        (read["status"].as_str(), read["claimedBy"].as_str()),
        (Some("pending"), None)
    );
    let (_, old) = app
        .call("GET", &format!("/api/workers/{worker}"), &app.worker, None)
        .await;
    assert_eq!(
        (old["status"].as_str(), old["error"].as_str()),
        (Some("failed"), Some("Task was reassigned"))
    );
    let (status, body) = app.report(&worker, json!({"status": "running"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["abort"], true, "{body}");
    let (_, feed) = app
        .call(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            &app.admin,
            None,
        )
        .await;
    assert!(
        feed.to_string().contains("\\\"stuck\\\" was taken over"),
        "{feed}"
    );

    // The next claim takes it; that runner's own claim is its to take over again.
    let again = app.claim_task(&task).await;
    assert_ne!(again, worker);
    let (status, body) = app
        .call("POST", &format!("{path}?force=true"), &app.worker, None)
        .await;
    assert_eq!(
        (status, body["reassigned"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{body}"
    );

    // A failed task goes back to the queue; a finished one stays.
    let failed = app.task(None, "broke").await;
    app.set_task_status(&failed, "failed").await;
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{failed}/reassign"),
            &app.worker,
            None,
        )
        .await;
    assert_eq!(
        (status, body["reassigned"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{body}"
    );
    assert_eq!(app.task_json(&failed).await["status"], "pending");
    let done = app.task(None, "shipped").await;
    app.set_task_status(&done, "completed").await;
    let (_, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{done}/reassign"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(body["reassigned"], false, "{body}");
    assert_eq!(
        body["reason"],
        "Cannot reassign task with status: completed"
    );
}
