mod common;

use axum::http::StatusCode;
use buildd_core::AccountLevel;
use buildd_server::db::sql;
use common::*;
use serde_json::{json, Value};

async fn claim(app: &TestApp, key: &str, body: Value) -> (StatusCode, Value) {
    app.call("POST", "/api/workers/claim", key, Some(body))
        .await
}

async fn task_with_deps(app: &TestApp, mission: &str, title: &str, deps: &[&str]) -> String {
    let (status, body) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(
                json!({"title": title, "workspaceId": app.workspace, "missionId": mission,
                        "dependsOn": deps}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["id"].as_str().unwrap().to_string()
}

fn claimed_ids(body: &Value) -> Vec<String> {
    body["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["taskId"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn claim_needs_a_runner_and_a_worker_or_admin_key() {
    let app = TestApp::new().await;
    let (status, body) = claim(&app, &app.trigger, json!({"runner": "r"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = claim(&app, &app.worker, json!({})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("runner is required"))
    );
    let (status, body) = claim(&app, &app.worker, json!({"runner": "r", "maxTasks": 0})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().starts_with("maxTasks"),
        "{body}"
    );
    let (status, _) = claim(&app, NO_KEY, json!({"runner": "r"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let (status, body) = claim(&app, &app.worker, json!({"runner": "r"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["workers"], json!([]));
    assert_eq!(body["diagnostics"]["reason"], "no_pending_tasks");
}

#[tokio::test]
async fn a_claim_assigns_the_task_and_hands_over_the_full_row() {
    let app = TestApp::new().await;
    let m = app.mission("Ship search").await;
    let (_, run) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    let planning = run["task"]["id"].as_str().unwrap();
    let (status, body) = claim(
        &app,
        &app.worker,
        json!({"runner": "r1", "workspaceId": app.workspace}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let w = &body["workers"][0];
    assert_eq!(w["taskId"], planning);
    assert_eq!(w["task"]["mode"], "planning");
    assert_eq!(w["task"]["status"], "assigned");
    assert_eq!(w["task"]["workspace"]["repo"], "acme/web");
    let branch = w["branch"].as_str().unwrap();
    assert!(
        branch.starts_with(&format!("buildd/{}-mission-ship-search", &planning[..8])),
        "{branch}"
    );
    assert_eq!(app.task_json(planning).await["status"], "assigned");
    // The mission says when its latest task started: this claim.
    assert_eq!(
        app.mission_json(&m).await["lastTaskStartedAt"],
        w["task"]["claimedAt"]
    );

    // The same task is never handed out twice.
    let (_, again) = claim(&app, &app.worker, json!({"runner": "r2"})).await;
    assert_eq!(again["workers"], json!([]));
}

#[tokio::test]
async fn claim_refuses_tasks_whose_dependencies_have_not_finished() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let a = task_with_deps(&app, &m, "Build the API", &[]).await;
    let b = task_with_deps(&app, &m, "Build the UI", &[&a]).await;
    let (_, first) = claim(&app, &app.worker, json!({"runner": "r", "maxTasks": 5})).await;
    assert_eq!(claimed_ids(&first), vec![a.clone()]);
    let (_, blocked) = claim(&app, &app.worker, json!({"runner": "r"})).await;
    assert_eq!(blocked["workers"], json!([]));
    assert_eq!(blocked["diagnostics"]["reason"], "deps_blocked");
    assert_eq!(blocked["diagnostics"]["pendingTasks"], 1);

    // A completed dependency with an open PR still blocks; merged, it lets go.
    let worker = first["workers"][0]["id"].as_str().unwrap();
    let (status, done) = app
        .report(
            worker,
            json!({"status": "completed", "summary": "API done",
                               "prUrl": "https://github.com/acme/web/pull/9", "prNumber": 9}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (_, still) = claim(&app, &app.worker, json!({"runner": "r"})).await;
    assert_eq!(still["diagnostics"]["reason"], "deps_blocked");
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE workers SET merged_at = '2026-11-29T12:00:00.000Z' WHERE id = ?")
        .bind(worker)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (_, next) = claim(&app, &app.worker, json!({"runner": "r"})).await;
    assert_eq!(claimed_ids(&next), vec![b]);
}

#[tokio::test]
async fn a_cancelled_dependency_lets_go_and_a_failed_one_fails_its_dependents() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let a = task_with_deps(&app, &m, "A", &[]).await;
    let b = task_with_deps(&app, &m, "B", &[&a]).await;
    app.set_task_status(&a, "cancelled").await;
    let (_, got) = claim(&app, &app.worker, json!({"runner": "r", "taskId": b})).await;
    assert_eq!(claimed_ids(&got), vec![b]);

    let x = task_with_deps(&app, &m, "X", &[]).await;
    let y = task_with_deps(&app, &m, "Y", &[&x]).await;
    let z = task_with_deps(&app, &m, "Z", &[&y]).await;
    let worker = app.claim_task(&x).await;
    let (status, body) = app
        .report(
            &worker,
            json!({"status": "failed", "error": "tests failed"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "failed");
    assert_eq!(body["error"], "tests failed");
    let y_json = app.task_json(&y).await;
    assert_eq!(y_json["status"], "failed");
    assert_eq!(
        y_json["result"]["error"],
        format!("Blocked: dependency \"X\" ({x}) failed")
    );
    let z_json = app.task_json(&z).await;
    assert_eq!(
        z_json["result"]["error"],
        format!("Blocked: dependency \"Y\" ({y}) failed")
    );

    // Queued again, X takes back what it blocked; W failed on its own and stays failed.
    let w = task_with_deps(&app, &m, "W", &[&x]).await;
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE tasks SET status = 'failed', result = '{\"error\":\"lint\"}' WHERE id = ?")
        .bind(&w)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    app.set_task_status(&x, "pending").await;
    for t in [&y, &z] {
        let j = app.task_json(t).await;
        assert_eq!(j["status"], "pending", "{j}");
        assert_eq!(j["result"], serde_json::Value::Null);
    }
    assert_eq!(app.task_json(&w).await["status"], "failed");

    // A dependent another failure still blocks stays failed, naming that one.
    let v = task_with_deps(&app, &m, "V", &[]).await;
    let both = task_with_deps(&app, &m, "Both", &[&x, &v]).await;
    let runner = app.claim_task(&x).await;
    app.report(&runner, json!({"status": "failed", "error": "again"}))
        .await;
    let runner = app.claim_task(&v).await;
    app.report(&runner, json!({"status": "failed", "error": "v broke"}))
        .await;
    assert_eq!(
        app.task_json(&both).await["result"]["error"],
        format!("Blocked: dependency \"X\" ({x}) failed")
    );
    app.set_task_status(&x, "pending").await;
    let j = app.task_json(&both).await;
    assert_eq!(j["status"], "failed");
    assert_eq!(
        j["result"]["error"],
        format!("Blocked: dependency \"V\" ({v}) failed")
    );
    app.set_task_status(&v, "pending").await;
    assert_eq!(app.task_json(&both).await["status"], "pending");
    let again = app.claim_task(&x).await;
    assert!(!again.is_empty());
}

#[tokio::test]
async fn only_the_worker_that_claimed_may_report() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let t = app.task(Some(&m), "Fix the header").await;
    let worker = app.claim_task(&t).await;
    let mut tx = app.db.write().await.unwrap();
    let team: (String,) = sql::query_as("SELECT team_id FROM accounts WHERE name = 'w'")
        .fetch_one(&mut tx)
        .await
        .unwrap();
    let second = buildd_server::keys::create_key(&mut tx, &team.0, &AccountLevel::Worker, "w2")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let path = format!("/api/workers/{worker}");
    let body = Some(json!({"status": "running"}));
    let (status, _) = app.call("PATCH", &path, &second, body.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app.call("PATCH", &path, &app.other, body.clone()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app
        .call("PATCH", "/api/workers/nope", &app.worker, body.clone())
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, progress) = app
        .report(
            &worker,
            json!({"status": "running", "currentAction": "Editing header.rs"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{progress}");
    assert_eq!(progress["status"], "running");
    assert_eq!(progress["currentAction"], "Editing header.rs");
    let (status, bad) = app.report(&worker, json!({"status": "dancing"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(bad["error"]
        .as_str()
        .unwrap()
        .starts_with("status must be one of"));

    let (status, _) = app
        .report(&worker, json!({"status": "completed", "summary": "done"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, again) = app.report(&worker, json!({"status": "completed"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(again["error"], "Worker already completed");
    assert_eq!(again["abort"], true);
    let done = app.task_json(&t).await;
    assert_eq!(
        (done["status"].as_str(), done["result"]["summary"].as_str()),
        (Some("completed"), Some("done"))
    );
}

#[tokio::test]
async fn a_planning_run_without_structured_output_is_force_failed() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let (_, run) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    let run = run["task"]["id"].as_str().unwrap().to_string();
    let (status, worker) = app
        .complete_task(&run, json!({"summary": "I wrote the plan in prose."}))
        .await;
    assert_eq!(status, StatusCode::OK, "{worker}");
    let message = "the plan was not returned as validated JSON, so no child tasks could be created";
    assert_eq!(worker["status"], "failed");
    assert_eq!(worker["error"], message);
    let task = app.task_json(&run).await;
    assert_eq!(task["status"], "failed");
    assert_eq!(task["result"]["error"], message);
    // The failed run frees the mission's planning slot.
    let (status, _) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_pr_required_task_cannot_complete_without_its_pr() {
    let app = TestApp::new().await;
    let (status, body) = app
        .call(
            "POST",
            "/api/tasks",
            &app.admin,
            Some(json!({"title": "Ship it", "workspaceId": app.workspace, "outputRequirement": "pr_required"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let t = body["id"].as_str().unwrap().to_string();
    let (status, refused) = app.complete_task(&t, json!({"summary": "done"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(refused["hint"], "create_pr");
    assert_eq!(app.task_json(&t).await["status"], "assigned");
}

/// Opens an organizer run, completes it with `steps` independent steps and approves it.
async fn approved_plan(app: &TestApp, mission: &str, steps: usize) -> (String, Vec<String>) {
    let (_, run) = app
        .call(
            "POST",
            &format!("/api/missions/{mission}/run"),
            &app.admin,
            None,
        )
        .await;
    let run = run["task"]["id"].as_str().unwrap().to_string();
    let plan: Vec<Value> = (0..steps)
        .map(|i| json!({"ref": format!("s{i}"), "title": format!("Step {i}"), "description": "d"}))
        .collect();
    let (status, body) = app
        .complete_task(
            &run,
            json!({"structuredOutput": {"plan": plan, "summary": "s", "missionComplete": false}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, approved) = app
        .call(
            "POST",
            &format!("/api/tasks/{run}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    let children = approved["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    (run, children)
}

async fn aggregators(app: &TestApp, mission: &str) -> Vec<Value> {
    let (_, page) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={mission}&limit=100"),
            &app.admin,
            None,
        )
        .await;
    page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            t["title"]
                .as_str()
                .unwrap()
                .starts_with("Aggregate results:")
        })
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_children_finishing_together_open_exactly_one_aggregation() {
    let app = std::sync::Arc::new(TestApp::new().await);
    let m = app.mission("Checkout").await;
    let (run, children) = approved_plan(&app, &m, 4).await;
    let mut workers = Vec::new();
    for c in &children {
        workers.push(app.claim_task(c).await);
    }
    let mut handles = Vec::new();
    for (i, w) in workers.into_iter().enumerate() {
        let app = app.clone();
        handles.push(tokio::spawn(async move {
            let body = if i == 0 {
                json!({"status": "failed", "error": "flaky"})
            } else {
                json!({"status": "completed", "summary": format!("step {i} done")})
            };
            app.report(&w, body).await
        }));
    }
    for h in handles {
        let (status, body) = h.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let found = aggregators(&app, &m).await;
    assert_eq!(found.len(), 1, "{found:?}");
    let agg = &found[0];
    assert_eq!(agg["title"], "Aggregate results: Mission: Checkout");
    let detail = app.task_json(agg["id"].as_str().unwrap()).await;
    assert_eq!(detail["parentTaskId"], json!(run));
    assert_eq!(detail["mode"], "execution");
    assert_eq!(detail["taskClass"], "bookkeeping");
    assert_eq!(detail["context"]["aggregation"], true);
    let statuses: Vec<&str> = detail["context"]["childTasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.len(), 4);
    assert_eq!(statuses.iter().filter(|s| **s == "failed").count(), 1);

    // Finishing the aggregator opens no second one.
    let (status, _) = app
        .complete_task(agg["id"].as_str().unwrap(), json!({"summary": "merged"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(aggregators(&app, &m).await.len(), 1);
}

#[tokio::test]
async fn a_single_step_plan_needs_no_aggregation() {
    let app = TestApp::new().await;
    let m = app.mission("Tiny").await;
    let (_, children) = approved_plan(&app, &m, 1).await;
    let (status, _) = app
        .complete_task(&children[0], json!({"summary": "ok"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(aggregators(&app, &m).await.is_empty());
}

#[tokio::test]
async fn messages_reach_a_running_agent_on_its_next_report() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let t = app.task(Some(&m), "Refactor the cart").await;
    let worker = app.claim_task(&t).await;
    let path = format!("/api/workers/{worker}/instruct");
    let (status, _) = app
        .call("POST", &path, &app.worker, Some(json!({"message": "hi"})))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app
        .call("POST", &path, &app.admin, Some(json!({"message": "  "})))
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("Message is required"))
    );
    let (status, _) = app
        .call("POST", &path, &app.other, Some(json!({"message": "hi"})))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, sent) = app
        .call(
            "POST",
            &path,
            &app.admin,
            Some(json!({"message": "Keep the old API working"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{sent}");
    assert_eq!(
        (sent["ok"].as_bool(), sent["workerId"].as_str()),
        (Some(true), Some(worker.as_str()))
    );

    let history = format!("/api/tasks/{t}/messages");
    let (_, before) = app.call("GET", &history, &app.worker, None).await;
    assert_eq!(before["workerId"], json!(worker));
    assert_eq!(before["messages"][0]["message"], "Keep the old API working");
    assert_eq!(before["messages"][0]["type"], "instruction");
    assert_eq!(before["messages"][0]["deliveryState"], "pending");

    let (_, progress) = app.report(&worker, json!({"status": "running"})).await;
    assert_eq!(progress["instructions"], "Keep the old API working");
    let (_, after) = app.call("GET", &history, &app.admin, None).await;
    assert_eq!(after["messages"][0]["deliveryState"], "delivered");
    let (_, quiet) = app
        .report(&worker, json!({"currentAction": "Testing"}))
        .await;
    assert!(quiet.get("instructions").is_none(), "{quiet}");

    app.report(&worker, json!({"status": "completed"})).await;
    let (status, body) = app
        .call(
            "POST",
            &path,
            &app.admin,
            Some(json!({"message": "one more thing"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "Cannot instruct completed or failed workers");
}

/// A report's answer is the worker as the report left it, whichever writes the report made:
/// each answer equals what a read of the worker shows right after (its task and workspace
/// aside).
#[tokio::test]
async fn a_report_answers_with_the_worker_as_stored() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    let t = app.task(Some(&m), "Refactor the cart").await;
    let worker = app.claim_task(&t).await;
    let instruct = format!("/api/workers/{worker}/instruct");
    let message = Some(json!({"message": "Keep the old API working"}));
    let reports = [
        json!({"status": "running", "currentAction": "Reading the cart",
               "appendMilestones": [{"label": "Read the code"}],
               "costUsd": 0.25, "inputTokens": 1200, "outputTokens": 300}),
        // An instruction queued before this one is handed over by it.
        json!({"currentAction": "Editing cart.rs"}),
        json!({"currentAction": "Opening the PR", "prNumber": 41,
               "prUrl": "https://github.com/acme/web/pull/41",
               "baseBranch": "main", "headBranch": "buildd/41", "headSha": "abc1234def5678"}),
        json!({"status": "completed", "summary": "Refactored"}),
    ];
    for (i, body) in reports.into_iter().enumerate() {
        if i == 1 {
            let (status, _) = app
                .call("POST", &instruct, &app.admin, message.clone())
                .await;
            assert_eq!(status, StatusCode::OK);
        }
        let (status, mut answer) = app.report(&worker, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{body}: {answer}");
        let handed = answer.as_object_mut().unwrap().remove("instructions");
        assert_eq!(handed.is_some(), i == 1, "{body}: {handed:?}");
        let (_, mut stored) = app
            .call("GET", &format!("/api/workers/{worker}"), &app.worker, None)
            .await;
        let stored = stored.as_object_mut().unwrap();
        stored.remove("task");
        stored.remove("workspace");
        assert_eq!(answer, Value::Object(stored.clone()), "after {body}");
    }
}
