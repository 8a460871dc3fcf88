//! Spend and budgets: what workers report is summed per task and mission, a mission whose
//! spend reaches its budget stops (once, with one note), and raising the budget starts it
//! again.

mod common;

use axum::http::StatusCode;
use buildd_core::money::Usd;
use buildd_core::spend::mission_usage;
use buildd_core::spend::Usage;
use buildd_server::scheduler::tick;
use buildd_server::CheckinConfig;
use common::{TestApp, WorkerVerbs};
use serde_json::{json, Value};
use std::sync::Arc;

/// A manual mission (it plans only on Run) with `budget`, and `n` pending tasks.
async fn mission_with_tasks(app: &TestApp, budget: Value, n: usize) -> (String, Vec<String>) {
    let id = app
        .mission_with(
            json!({"title": "Costly", "orchestrationMode": "manual", "costBudgetUsd": budget}),
        )
        .await;
    let mut tasks = Vec::new();
    for i in 0..n {
        tasks.push(app.task(Some(&id), &format!("Step {i}")).await);
    }
    (id, tasks)
}

fn usd(v: &Value) -> Usd {
    Usd::parse(
        v.as_str()
            .unwrap_or_else(|| panic!("a decimal string: {v}")),
    )
    .unwrap()
}

async fn budget_notes(app: &TestApp, mission: &str) -> Vec<Value> {
    let (_, feed) = app
        .call(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            &app.admin,
            None,
        )
        .await;
    feed["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["title"] == "Budget exhausted")
        .cloned()
        .collect()
}

async fn patch_mission(app: &TestApp, id: &str, body: Value) -> (StatusCode, Value) {
    app.call(
        "PATCH",
        &format!("/api/missions/{id}"),
        &app.admin,
        Some(body),
    )
    .await
}

#[tokio::test]
async fn spend_is_summed_per_task_over_every_attempt_and_per_mission_over_every_task() {
    let app = TestApp::new().await;
    let (mission, tasks) = mission_with_tasks(&app, Value::Null, 2).await;
    let first = app.claim_task(&tasks[0]).await;
    // A later report replaces the earlier total, as a runner sends its running total.
    app.report_ok(
        &first,
        json!({"costUsd": 0.25, "inputTokens": 1000, "outputTokens": 50}),
    )
    .await;
    let worker = app
        .report_ok(&first, json!({"costUsd": 0.4, "inputTokens": 3000}))
        .await;
    assert_eq!(worker["costUsd"], "0.400000");
    assert_eq!(
        (
            worker["inputTokens"].as_i64(),
            worker["outputTokens"].as_i64()
        ),
        (Some(3000), Some(50))
    );
    app.report_ok(&first, json!({"status": "failed", "error": "flaky"}))
        .await;
    // The retry is a second attempt of the same task: both count.
    app.set_task_status(&tasks[0], "pending").await;
    let retry = app.claim_task(&tasks[0]).await;
    app.report_ok(&retry, json!({"costUsd": 0.35})).await;
    // Buildd's runner states its cost only in resultMeta.
    let (status, body) = app
        .complete_task(
            &tasks[1],
            json!({"resultMeta": {"modelUsage": {"sonnet": {"costUSD": 1.05, "inputTokens": 9}}}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let task = app.task_json(&tasks[0]).await;
    assert_eq!(usd(&task["costUsd"]), Usd::from_cents(75));
    let detail = app.mission_json(&mission).await;
    let costs: Vec<Usd> = detail["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| usd(&t["costUsd"]))
        .collect();
    // The spend the database keeps is buildd-core's sum over the tasks.
    let summed = mission_usage(costs.iter().map(|&cost| Usage {
        cost,
        ..Usage::default()
    }));
    assert_eq!(usd(&detail["spendUsd"]), summed.cost);
    assert_eq!(summed.cost, Usd::from_cents(180));
    let (_, list) = app.call("GET", "/api/missions", &app.admin, None).await;
    let listed = list["missions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == mission.as_str())
        .unwrap();
    assert_eq!(listed["spendUsd"], "1.800000");
    // Every attempt is on the task page, with its cost and tokens.
    let (_, with_workers) = app
        .call(
            "GET",
            &format!("/api/tasks/{}?include=workers", tasks[0]),
            &app.admin,
            None,
        )
        .await;
    let attempts: Vec<&str> = with_workers["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["costUsd"].as_str().unwrap())
        .collect();
    assert_eq!(attempts, ["0.350000", "0.400000"]);
}

#[tokio::test]
async fn organizer_runs_count_in_spend_and_deleting_a_task_does_not_lift_it() {
    let app = TestApp::new().await;
    let (mission, tasks) = mission_with_tasks(&app, Value::Null, 1).await;
    let (status, run) = app
        .call(
            "POST",
            &format!("/api/missions/{mission}/run"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{run}");
    let organizer = app.claim_task(run["task"]["id"].as_str().unwrap()).await;
    app.report_ok(&organizer, json!({"costUsd": 0.2})).await;
    let worker = app.claim_task(&tasks[0]).await;
    app.report_ok(&worker, json!({"costUsd": 0.5})).await;
    assert_eq!(app.mission_json(&mission).await["spendUsd"], "0.700000");
    let (status, _) = app
        .call(
            "DELETE",
            &format!("/api/tasks/{}?force=true", tasks[0]),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.mission_json(&mission).await["spendUsd"], "0.700000");
}

#[tokio::test]
async fn bad_usage_is_refused_naming_the_field_and_changes_nothing() {
    let app = TestApp::new().await;
    let (_, tasks) = mission_with_tasks(&app, Value::Null, 1).await;
    let worker = app.claim_task(&tasks[0]).await;
    app.report_ok(&worker, json!({"costUsd": 0.1})).await;
    for (body, field) in [
        (json!({"costUsd": -1, "currentAction": "x"}), "costUsd"),
        (json!({"costUsd": "0.5"}), "costUsd"),
        (json!({"inputTokens": 1.5}), "inputTokens"),
        (json!({"outputTokens": -3}), "outputTokens"),
        (json!({"status": "completed", "costUsd": true}), "costUsd"),
    ] {
        let (status, answer) = app.report(&worker, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            answer["error"].as_str().unwrap().starts_with(field),
            "{answer}"
        );
    }
    let task = app.task_json(&tasks[0]).await;
    assert_eq!(task["costUsd"], "0.100000");
    assert_eq!(
        task["status"], "assigned",
        "the refused completion left the task as it was"
    );
}

#[tokio::test]
async fn the_report_that_reaches_the_budget_stops_the_mission_once() {
    let app = TestApp::new().await;
    let (mission, tasks) = mission_with_tasks(&app, json!(1.0), 3).await;
    let a = app.claim_task(&tasks[0]).await;
    let b = app.claim_task(&tasks[1]).await;
    app.report_ok(&a, json!({"costUsd": 0.7})).await;
    assert_eq!(app.mission_json(&mission).await["status"], "active");
    app.report_ok(&b, json!({"costUsd": 0.7})).await;
    let detail = app.mission_json(&mission).await;
    assert_eq!(detail["status"], "budget_exhausted");
    let notes = budget_notes(&app, &mission).await;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["type"], "warning");
    assert_eq!(
        notes[0]["body"],
        "$1.4000 spent vs $1.00 budget — no new tasks will be spawned. Raise costBudgetUsd to resume."
    );
    // Nothing new starts: no claim, no Run, no check-in.
    let (status, claim) = app
        .call(
            "POST",
            "/api/workers/claim",
            &app.worker,
            Some(json!({"runner": "r", "taskId": tasks[2]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(claim["workers"], json!([]));
    assert_eq!(claim["diagnostics"]["reason"], "budget_exhausted");
    let (status, run) = app
        .call(
            "POST",
            &format!("/api/missions/{mission}/run"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        run["error"]
            .as_str()
            .unwrap()
            .contains("its budget is spent ($1.40 of $1.00)"),
        "{run}"
    );
    // A worker already on a task may finish it, and more spend posts no second note.
    app.report_ok(&a, json!({"costUsd": 0.9, "status": "completed"}))
        .await;
    assert_eq!(budget_notes(&app, &mission).await.len(), 1);
    assert_eq!(app.mission_json(&mission).await["spendUsd"], "1.600000");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_reports_that_cross_the_budget_together_make_one_move_and_one_note() {
    let app = Arc::new(TestApp::new().await);
    let (mission, tasks) = mission_with_tasks(&app, json!(1.0), 4).await;
    let mut workers = Vec::new();
    for t in &tasks {
        workers.push(app.claim_task(t).await);
    }
    let reports = workers.into_iter().map(|w| {
        let app = app.clone();
        tokio::spawn(async move { app.report(&w, json!({"costUsd": 0.6})).await })
    });
    for answer in futures_join(reports).await {
        assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    }
    assert_eq!(
        app.mission_json(&mission).await["status"],
        "budget_exhausted"
    );
    assert_eq!(budget_notes(&app, &mission).await.len(), 1);
}

async fn futures_join<T>(handles: impl Iterator<Item = tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut out = Vec::new();
    for h in handles.collect::<Vec<_>>() {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test]
async fn raising_the_budget_above_the_spend_restarts_the_mission_and_plans_once() {
    let app = TestApp::new().await;
    let mission = app
        .mission_with(json!({"title": "Auto", "isHeartbeat": false, "costBudgetUsd": "1.00"}))
        .await;
    let task = app.task(Some(&mission), "Build it").await;
    let worker = app.claim_task(&task).await;
    app.report_ok(&worker, json!({"costUsd": 1.4})).await;
    assert_eq!(
        app.mission_json(&mission).await["status"],
        "budget_exhausted"
    );

    let (status, body) = patch_mission(&app, &mission, json!({"costBudgetUsd": 1.4})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["error"],
        "costBudgetUsd must be above the $1.40 already spent"
    );
    let (status, body) = patch_mission(&app, &mission, json!({"status": "active"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        app.mission_json(&mission).await["status"],
        "budget_exhausted"
    );

    let (status, body) = patch_mission(&app, &mission, json!({"costBudgetUsd": "3"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (body["status"].as_str(), body["costBudgetUsd"].as_str()),
        (Some("active"), Some("3.00"))
    );
    assert_eq!(body["spendUsd"], "1.400000");
    assert_eq!(app.run_labels(&mission).await, ["budget raised"]);
    // The worker goes on; a claim of other work is allowed again.
    let other = app.task(Some(&mission), "More").await;
    app.claim_task(&other).await;
}

#[tokio::test]
async fn clearing_the_budget_restarts_and_a_budget_already_spent_stops_at_once() {
    let app = TestApp::new().await;
    let (mission, tasks) = mission_with_tasks(&app, json!(0.5), 1).await;
    let worker = app.claim_task(&tasks[0]).await;
    app.report_ok(&worker, json!({"costUsd": 0.5})).await;
    assert_eq!(
        app.mission_json(&mission).await["status"],
        "budget_exhausted"
    );
    let (_, body) = patch_mission(&app, &mission, json!({"costBudgetUsd": null})).await;
    assert_eq!(
        (body["status"].as_str(), &body["costBudgetUsd"]),
        (Some("active"), &Value::Null)
    );
    // An active mission given a budget it already spent stops now, with its note.
    let (_, body) = patch_mission(&app, &mission, json!({"costBudgetUsd": 0.25})).await;
    assert_eq!(body["status"], "budget_exhausted");
    assert_eq!(budget_notes(&app, &mission).await.len(), 2);
    // A paused mission is not moved; resuming one whose spend reached its budget stops it.
    let (mission, tasks) = mission_with_tasks(&app, json!(0.3), 1).await;
    let worker = app.claim_task(&tasks[0]).await;
    patch_mission(&app, &mission, json!({"status": "paused"})).await;
    app.report_ok(&worker, json!({"costUsd": 0.3})).await;
    assert_eq!(app.mission_json(&mission).await["status"], "paused");
    let (_, body) = patch_mission(&app, &mission, json!({"status": "active"})).await;
    assert_eq!(body["status"], "budget_exhausted");
}

#[tokio::test]
async fn a_check_in_of_a_mission_out_of_budget_defers_and_says_why() {
    let app = TestApp::new().await;
    let mission = app
        .mission_with(json!({"title": "Watched", "costBudgetUsd": 1}))
        .await;
    // Its first organizer run spends the whole budget.
    let runs = app.runs_json(&mission).await;
    let run = runs["runs"][0]["taskId"].as_str().unwrap().to_string();
    let worker = app.claim_task(&run).await;
    app.report_ok(&worker, json!({"costUsd": 1.25})).await;
    app.report_ok(&worker, json!({"status": "failed", "error": "stopped"}))
        .await;
    let later = chrono::Utc::now() + chrono::Duration::hours(5);
    tick(&app.db, later, &CheckinConfig::default())
        .await
        .unwrap();
    let runs = app.runs_json(&mission).await;
    assert_eq!(runs["checkIns"][0]["reason"], "budget_exhausted");
    assert_eq!(
        runs["checkIns"][0]["text"],
        "deferred: its budget is spent ($1.25 of $1.00): raise costBudgetUsd to resume"
    );
    assert_eq!(runs["runs"].as_array().unwrap().len(), 1, "no second run");
}

#[tokio::test]
async fn a_new_mission_takes_an_optional_budget() {
    let app = TestApp::new().await;
    let (mission, _) = mission_with_tasks(&app, json!("12.5"), 0).await;
    let detail = app.mission_json(&mission).await;
    assert_eq!(
        (
            detail["costBudgetUsd"].as_str(),
            detail["spendUsd"].as_str()
        ),
        (Some("12.50"), Some("0.000000"))
    );
    let (status, body) = app
        .call(
            "POST",
            "/api/missions",
            &app.admin,
            Some(json!({"title": "x", "costBudgetUsd": -2})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().starts_with("costBudgetUsd"),
        "{body}"
    );
}
