//! A mission page reuses the tasks it read before and reads again only those that moved:
//! after every kind of change it answers exactly what a cold read answers.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use buildd_server::db::sql;
use buildd_server::scheduler::prune_log_keeping;
use common::TestApp;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The mission's tasks and progress as `router` answers them.
async fn tasks_of(app: &TestApp, router: &axum::Router, mission: &str) -> Value {
    let req = Request::get(format!("/api/missions/{mission}"))
        .header("Authorization", format!("Bearer {}", app.admin))
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(req).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let detail: Value = serde_json::from_slice(&body).unwrap();
    serde_json::json!({
        "tasks": detail["tasks"], "segments": detail["segments"],
        "progress": detail["progress"], "totalTasks": detail["totalTasks"],
    })
}

/// The warm server's answer, checked against a server that has kept nothing and against
/// the tasks the mission list embeds (built as JSON by the database, where the page's are
/// read row by row on Postgres).
async fn same_as_cold(app: &TestApp, mission: &str) -> Value {
    let warm = tasks_of(app, &app.router, mission).await;
    let cold = tasks_of(app, &buildd_server::app(app.db.clone(), None), mission).await;
    assert_eq!(warm, cold, "kept tasks differ from a fresh read");
    assert_eq!(listed(app, mission).await, as_listed(&warm["tasks"]));
    warm
}

/// The mission's tasks as the mission list embeds them.
async fn listed(app: &TestApp, mission: &str) -> Value {
    let req = Request::get("/api/missions")
        .header("Authorization", format!("Bearer {}", app.admin))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(req).await.unwrap();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let list: Value = serde_json::from_slice(&body).unwrap();
    let found = list["missions"].as_array().unwrap().iter();
    let mut found = found.filter(|m| m["id"] == mission);
    found.next().expect("the mission is listed")["tasks"].clone()
}

/// A detail's tasks less what only a detail carries: priority, createdAt, and the result
/// of a task that is not an organizer run.
fn as_listed(tasks: &Value) -> Value {
    let mut tasks = tasks.clone();
    for task in tasks.as_array_mut().unwrap() {
        let task = task.as_object_mut().unwrap();
        task.remove("priority");
        task.remove("createdAt");
        if task["mode"] != "planning" {
            task.remove("result");
        }
    }
    tasks
}

fn ids(tasks: &Value) -> Vec<String> {
    tasks["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_string())
        .collect()
}

async fn sql(app: &TestApp, statement: &str, binds: &[&str]) {
    let mut tx = app.db.write().await.unwrap();
    let mut q = sql::query(statement);
    for b in binds {
        q = q.bind(*b);
    }
    q.execute(&mut tx).await.unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn every_change_to_a_missions_tasks_shows_on_its_page() {
    let app = TestApp::new().await;
    let m = app.mission("Memo").await;
    let other = app.mission("Elsewhere").await;
    let a = app.task(Some(&m), "A").await;
    let b = app.task(Some(&m), "B").await;
    let c = app.task(Some(&m), "C").await;
    assert_eq!(ids(&same_as_cold(&app, &m).await), ["C", "B", "A"]);

    // A task's own fields.
    app.set_task_status(&a, "completed").await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][2]["status"], "completed");
    assert_eq!(now["progress"], 33);

    // A new task, newest first.
    let d = app.task(Some(&m), "D").await;
    assert_eq!(ids(&same_as_cold(&app, &m).await), ["D", "C", "B", "A"]);

    // A worker: running, then a PR.
    app.worker_on(&b, "running", None, false).await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][2]["workers"][0]["status"], "running");
    app.worker_on(&c, "completed", Some(7), false).await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][1]["workers"][0]["prNumber"], 7);

    // A worker's own changes (a merge, a failure) and its removal.
    sql(
        &app,
        "UPDATE workers SET merged_at = '2026-11-29T12:30:00.000Z', \
           pr_lifecycle_status = 'merged' WHERE task_id = ?1",
        &[&c],
    )
    .await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][1]["workers"][0]["prLifecycleStatus"], "merged");
    sql(
        &app,
        "UPDATE workers SET status = 'failed' WHERE task_id = ?1",
        &[&b],
    )
    .await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][2]["workers"][0]["status"], "failed");
    sql(&app, "DELETE FROM workers WHERE task_id = ?1", &[&b]).await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][2]["workers"], serde_json::json!([]));

    // A task whose creation time changes moves to its new place.
    sql(
        &app,
        "UPDATE tasks SET created_at = '2000-01-01T00:00:00.000Z' WHERE id = ?1",
        &[&d],
    )
    .await;
    assert_eq!(ids(&same_as_cold(&app, &m).await), ["C", "B", "A", "D"]);
    sql(
        &app,
        "UPDATE tasks SET created_at = '2100-01-01T00:00:00.000Z' WHERE id = ?1",
        &[&d],
    )
    .await;
    assert_eq!(ids(&same_as_cold(&app, &m).await), ["D", "C", "B", "A"]);

    // A task created earlier than others lands in its place, not at the top (C is made
    // later than B, which the new task ties with, whatever millisecond they were made in).
    sql(
        &app,
        "UPDATE tasks SET created_at = '2050-01-01T00:00:00.000Z' WHERE id = ?1",
        &[&c],
    )
    .await;
    sql(
        &app,
        "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, status, created_at, updated_at) \
         SELECT 'late', team_id, workspace_id, mission_id, 'Between', 'pending', \
           (SELECT created_at FROM tasks WHERE id = ?2), updated_at FROM tasks WHERE id = ?1",
        &[&a, &b],
    )
    .await;
    assert_eq!(
        ids(&same_as_cold(&app, &m).await),
        ["D", "C", "Between", "B", "A"]
    );

    // Deleted, and moved to another mission.
    sql(&app, "DELETE FROM tasks WHERE id = 'late'", &[]).await;
    assert_eq!(ids(&same_as_cold(&app, &m).await), ["D", "C", "B", "A"]);
    assert_eq!(ids(&same_as_cold(&app, &other).await), Vec::<String>::new());
    sql(
        &app,
        "UPDATE tasks SET mission_id = ?2 WHERE id = ?1",
        &[&d, &other],
    )
    .await;
    assert_eq!(ids(&same_as_cold(&app, &m).await), ["C", "B", "A"]);
    assert_eq!(ids(&same_as_cold(&app, &other).await), ["D"]);

    // A change whose log entry was pruned: the page reads everything again.
    app.set_task_status(&c, "failed").await;
    prune_log_keeping(&app.db, 0).await.unwrap();
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][0]["status"], "failed");
    app.set_task_status(&b, "cancelled").await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][1]["status"], "cancelled");
    assert_eq!(now["totalTasks"], 2, "cancelled work leaves the count");

    // A result, dependencies, a cost and a question; an organizer run's result is listed.
    sql(
        &app,
        "UPDATE tasks SET result = '{\"summary\":\"Shipped\",\"files\":[\"a.rs\"]}', \
           depends_on = ?2 WHERE id = ?1",
        &[&a, &format!("[\"{c}\"]")],
    )
    .await;
    app.worker_on(&b, "waiting_input", None, false).await;
    sql(
        &app,
        "UPDATE workers SET cost_micros = 1250042, \
           waiting_for = '{\"question\":\"Which one?\",\"options\":[\"x\",\"y\"]}' \
         WHERE task_id = ?1",
        &[&b],
    )
    .await;
    sql(
        &app,
        "UPDATE tasks SET mode = 'planning' WHERE id = ?1",
        &[&c],
    )
    .await;
    sql(
        &app,
        "UPDATE tasks SET result = 'null' WHERE id = ?1",
        &[&c],
    )
    .await;
    let now = same_as_cold(&app, &m).await;
    assert_eq!(now["tasks"][2]["result"]["summary"], "Shipped");
    assert_eq!(now["tasks"][2]["dependsOn"], serde_json::json!([c]));
    assert_eq!(now["tasks"][1]["costUsd"], "1.250042");
    assert_eq!(
        now["tasks"][1]["workers"][0]["waitingFor"]["question"],
        "Which one?"
    );
    assert_eq!(now["tasks"][0]["result"], Value::Null);
}
