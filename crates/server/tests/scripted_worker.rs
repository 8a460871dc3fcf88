mod common;

use axum::http::StatusCode;
use buildd_server::scripted_worker::{ScriptedWorker, WorkerClient};
use common::*;
use std::time::Duration;

/// The scripted worker, over real HTTP, plans a mission and then works its steps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scripted_worker_plans_and_opens_prs_over_http() {
    let app = TestApp::new().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app.router.clone();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let worker = ScriptedWorker::new(
        WorkerClient::new(&format!("http://{addr}"), &app.worker),
        Duration::ZERO,
    );

    let m = app.mission("Saved searches").await;
    let (_, run) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    let run = run["task"]["id"].as_str().unwrap().to_string();
    let claimed = worker.claim_once().await.unwrap();
    assert_eq!(claimed.len(), 1);
    worker
        .work(claimed.into_iter().next().unwrap())
        .await
        .unwrap();

    let (_, planned) = app
        .call("GET", &format!("/api/tasks/{run}"), &app.admin, None)
        .await;
    assert_eq!(planned["status"], "completed");
    let plan = planned["result"]["structuredOutput"]["plan"]
        .as_array()
        .unwrap();
    assert_eq!(plan.len(), 5);
    assert_eq!(plan[0]["title"], "Audit how Saved searches works today");

    // Nothing moves until a person approves; then the first wave is claimable.
    assert!(worker.claim_once().await.unwrap().is_empty());
    let (status, approved) = app
        .call(
            "POST",
            &format!("/api/tasks/{run}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    let first_wave = worker.claim_once().await.unwrap();
    let titles: Vec<&str> = first_wave.iter().map(|c| c.task.title.as_str()).collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(titles
        .iter()
        .all(|t| t.starts_with("Audit") || t.starts_with("Write")));
    for c in first_wave {
        worker.work(c).await.unwrap();
    }
    let second_wave = worker.claim_once().await.unwrap();
    assert_eq!(second_wave.len(), 2);
    let task = second_wave[0].task.id.clone();
    for c in second_wave {
        worker.work(c).await.unwrap();
    }
    let (_, built) = app
        .call("GET", &format!("/api/tasks/{task}"), &app.admin, None)
        .await;
    assert_eq!(built["status"], "completed");
    assert!(
        built["prUrl"]
            .as_str()
            .unwrap()
            .starts_with("https://github.com/acme/web/pull/"),
        "{built}"
    );
    // CI passed on each PR's head commit, so both merged by themselves; "Verify" may start.
    assert!(built["mergedAt"].is_string(), "{built}");
    let (_, prs) = app
        .call("GET", &format!("/api/prs?missionId={m}"), &app.admin, None)
        .await;
    let states: Vec<&str> = prs["prs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["merged", "merged"]);
    let last = worker.claim_once().await.unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].task.title, "Verify Saved searches end to end");
    // It starts from the server step's branch, the one that step's worker pushed.
    let base = last[0].task.context["baseBranch"].as_str().unwrap();
    assert!(base.ends_with("-build-the-server-side-of-saved"), "{base}");
}
