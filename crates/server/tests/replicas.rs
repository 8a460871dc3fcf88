//! Two servers on one Postgres database, as two replicas behind a load balancer: each with
//! its own pool and its own caches, requests going to either.

mod common;
use axum::http::StatusCode;
use buildd_server::db::sql;
use buildd_testkit::RUNNER;
use common::*;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

/// 64 runners claiming at once, half through each replica, over 20 pending tasks: every
/// task goes to exactly one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_claims_across_replicas_give_each_task_once() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    let mut tasks = HashSet::new();
    for i in 0..20 {
        tasks.insert(app.task(None, &format!("Task {i}")).await);
    }
    let routers = Arc::new([app.router.clone(), other]);
    let claims: Vec<_> = (0..64)
        .map(|i| {
            let routers = routers.clone();
            let key = app.worker.clone();
            tokio::spawn(async move {
                let body = json!({"runner": format!("{RUNNER}-{i}"), "maxTasks": 1});
                send(
                    &routers[i % 2],
                    "POST",
                    "/api/workers/claim",
                    &key,
                    Some(body.to_string()),
                )
                .await
            })
        })
        .collect();
    let mut claimed = Vec::new();
    for claim in claims {
        let (status, body) = claim.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}");
        for worker in body["workers"].as_array().unwrap() {
            claimed.push(worker["taskId"].as_str().unwrap().to_string());
        }
    }
    let distinct: HashSet<String> = claimed.iter().cloned().collect();
    assert_eq!(
        claimed.len(),
        distinct.len(),
        "a task claimed twice: {claimed:?}"
    );
    assert_eq!(distinct, tasks, "every task claimed");
}

/// What one replica writes, the other's kept answers show at once: a mission created
/// through one is in the other's list, which it had answered (and kept) before.
#[tokio::test]
async fn a_write_through_one_replica_shows_in_the_others_kept_answers() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    let first = app.mission("First").await;
    let (status, before) = send(&other, "GET", "/api/missions", &app.admin, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(before["missions"].as_array().unwrap().len(), 1, "{before}");
    assert_eq!(before["missions"][0]["id"], first.as_str());
    let second = app.mission("Second").await;
    let (_, after) = send(&other, "GET", "/api/missions", &app.admin, None).await;
    let ids: HashSet<&str> = after["missions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, HashSet::from([first.as_str(), second.as_str()]));
}

/// The same plan approved through both replicas at once (two tabs, each on its replica):
/// its steps are filed once, and the other approval is refused as already done.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_plan_approved_through_both_replicas_at_once_is_filed_once() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    for round in 0..3 {
        let m = app.mission(&format!("Twice {round}")).await;
        let (status, run) = app
            .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
            .await;
        assert_eq!(status, StatusCode::CREATED, "{run}");
        let run = run["task"]["id"].as_str().unwrap().to_string();
        let plan = json!([{"ref": "a", "title": "Step a", "description": "d"},
                          {"ref": "b", "title": "Step b", "description": "d", "dependsOn": ["a"]}]);
        let (status, body) = app
            .complete_task(
                &run,
                json!({"summary": "planned",
                       "structuredOutput": {"plan": plan, "summary": "s", "missionComplete": false}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let path = format!("/api/tasks/{run}/approve-plan");
        let approvals: Vec<_> = [app.router.clone(), other.clone()]
            .into_iter()
            .map(|router| {
                let (path, key) = (path.clone(), app.admin.clone());
                tokio::spawn(async move { send(&router, "POST", &path, &key, None).await })
            })
            .collect();
        let mut statuses = Vec::new();
        for approval in approvals {
            let (status, body) = approval.await.unwrap();
            if status == StatusCode::CONFLICT {
                assert_eq!(body["error"], "Plan already approved", "{body}");
            }
            statuses.push(status);
        }
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}"
        );
        let (_, mission) = send(
            &other,
            "GET",
            &format!("/api/missions/{m}"),
            &app.admin,
            None,
        )
        .await;
        let children = mission["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["parentTaskId"] == run.as_str())
            .count();
        assert_eq!(children, 2, "round {round}: {mission}");
    }
}

/// One server at a time runs the chores; when it goes, another takes over.
#[tokio::test]
async fn one_replica_leads_the_chores_and_another_takes_over_when_it_goes() {
    let app = TestApp::on_postgres().await;
    let other = app.db.replica().await.unwrap().unwrap();
    let mut first = app.db.chore_leader();
    let mut second = other.chore_leader();
    assert!(first.leads().await, "the first to ask leads");
    assert!(!second.leads().await, "while it leads, no other does");
    assert!(first.leads().await, "and it goes on leading");
    // The leading server stops: its session ends, and the lock with it.
    drop(first);
    let mut took_over = false;
    for _ in 0..50 {
        if second.leads().await {
            took_over = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(took_over, "nobody took the chores over");
    let mut third = app.db.chore_leader();
    assert!(!third.leads().await, "the new leader leads alone");
}

/// A mission's last two tasks, finished at once through one replica each: the mission
/// plans again exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_two_tasks_finishing_through_both_replicas_start_one_organizer_run() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    for round in 0..4 {
        let m = app
            .mission_with(json!({"title": format!("Race {round}")}))
            .await;
        app.finish_planning(&m).await;
        let tasks = [
            app.task(Some(&m), "First").await,
            app.task(Some(&m), "Second").await,
        ];
        let runs = app.run_labels(&m).await.len();
        let mut workers = Vec::new();
        for task in &tasks {
            workers.push(app.claim_task(task).await);
        }
        let reports: Vec<_> = [app.router.clone(), other.clone()]
            .into_iter()
            .zip(workers)
            .map(|(router, worker)| {
                let key = app.worker.clone();
                tokio::spawn(async move {
                    let body = json!({"status": "completed"}).to_string();
                    send(
                        &router,
                        "PATCH",
                        &format!("/api/workers/{worker}"),
                        &key,
                        Some(body),
                    )
                    .await
                })
            })
            .collect();
        for report in reports {
            let (status, body) = report.await.unwrap();
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        assert_eq!(
            app.run_labels(&m).await.len(),
            runs + 1,
            "round {round}: one run more"
        );
    }
}

/// Two agents opening PRs at once, one through each replica: each PR has a number of its
/// own.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_prs_opened_through_both_replicas_at_once_get_distinct_numbers() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    let m = app.mission("Two PRs").await;
    let mut numbers = Vec::new();
    for round in 0..3 {
        let mut workers = Vec::new();
        for i in 0..2 {
            let task = app.task(Some(&m), &format!("Change {round}.{i}")).await;
            workers.push(app.claim_task(&task).await);
        }
        let opened: Vec<_> = [app.router.clone(), other.clone()]
            .into_iter()
            .zip(workers)
            .enumerate()
            .map(|(i, (router, worker))| {
                let key = app.worker.clone();
                tokio::spawn(async move {
                    let body = json!({"workerId": worker, "title": format!("Change {i}"),
                                      "head": format!("buildd/change-{round}-{i}")});
                    send(
                        &router,
                        "POST",
                        "/api/github/pr",
                        &key,
                        Some(body.to_string()),
                    )
                    .await
                })
            })
            .collect();
        for pr in opened {
            let (status, body) = pr.await.unwrap();
            assert_eq!(status, StatusCode::OK, "{body}");
            numbers.push(body["pr"]["number"].as_i64().expect("a number"));
        }
    }
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
}

/// A key deleted by hand (or through another server) stops working on every server
/// before the key cache's own time is up: each hears Postgres's notice and reads keys
/// afresh. Another key goes on working.
#[tokio::test]
async fn a_key_deleted_elsewhere_stops_working_on_every_replica() {
    let app = TestApp::on_postgres().await;
    let other = app.replica().await;
    let routers = [app.router.clone(), other];
    // Both servers have the worker's key kept.
    for router in &routers {
        let (status, body) = send(router, "GET", "/api/accounts/me", &app.worker, None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let mut tx = app.db.write().await.unwrap();
    sql::query("DELETE FROM accounts WHERE name = ? AND level = ?")
        .bind("w")
        .bind("worker")
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    // Well inside the cache's 10 s.
    for router in &routers {
        let mut status = StatusCode::OK;
        for _ in 0..50 {
            status = send(router, "GET", "/api/accounts/me", &app.worker, None)
                .await
                .0;
            if status == StatusCode::UNAUTHORIZED {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "the deleted key still works"
        );
        let (status, body): (StatusCode, Value) =
            send(router, "GET", "/api/accounts/me", &app.admin, None).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

/// How many rows of the change log `condition` picks.
async fn logged(app: &TestApp, condition: &str) -> i64 {
    let mut tx = app.db.read().await.unwrap();
    let (n,): (i64,) = sql::query_as(&format!("SELECT COUNT(*) FROM changes WHERE {condition}"))
        .fetch_one(&mut tx)
        .await
        .unwrap();
    n
}

/// The change log is pruned to its newest rows, placed or not, so it stays bounded with no
/// change stream open to place it.
#[tokio::test]
async fn the_change_log_is_pruned_to_its_newest_rows() {
    let app = TestApp::on_postgres().await;
    let mission = app.mission("Logged").await;
    for i in 0..10 {
        app.task(Some(&mission), &format!("Task {i}")).await;
    }
    let before = logged(&app, "TRUE").await;
    assert!(before > 6, "ten tasks log more than six rows, not {before}");
    let newest = logged(&app, "id > (SELECT MAX(id) FROM changes) - 3").await;
    assert_eq!(newest, 3);

    buildd_server::scheduler::prune_log_keeping(&app.db, 3)
        .await
        .unwrap();
    assert_eq!(
        logged(&app, "TRUE").await,
        3,
        "the newest three rows are kept"
    );
    assert_eq!(
        logged(&app, "id > (SELECT MAX(id) FROM changes) - 3").await,
        3
    );
    // Kept within twice as many, the log is left alone.
    app.task(Some(&mission), "One more").await;
    let now = logged(&app, "TRUE").await;
    buildd_server::scheduler::prune_log_keeping(&app.db, 3)
        .await
        .unwrap();
    assert_eq!(logged(&app, "TRUE").await, now);
}
