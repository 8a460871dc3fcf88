mod common;

use axum::http::StatusCode;
use buildd_server::demo::worker::{ScriptedWorker, WorkerClient};
use common::*;
use std::sync::Arc;
use std::time::Duration;

/// The app served on a loopback port, and a scripted worker speaking HTTP to it.
async fn served_worker(app: &TestApp) -> Arc<ScriptedWorker> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app.router.clone();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    ScriptedWorker::new(
        WorkerClient::new(&format!("http://{addr}"), &app.worker),
        Duration::ZERO,
    )
}

/// The scripted worker, over real HTTP, plans a mission and then works its steps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scripted_worker_plans_and_opens_prs_over_http() {
    let app = TestApp::new().await;
    let worker = served_worker(&app).await;

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
    // It reported what each run cost: the organizer run and every step count in the spend.
    let detail = app.mission_json(&m).await;
    let spent: Vec<f64> = detail["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "completed")
        .map(|t| t["costUsd"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(spent.len(), 5);
    assert!(spent.iter().all(|&c| (0.3..=1.5).contains(&c)), "{spent:?}");
    let total: f64 = detail["spendUsd"].as_str().unwrap().parse().unwrap();
    assert!((total - spent.iter().sum::<f64>()).abs() < 1e-6);
    let last = worker.claim_once().await.unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].task.title, "Verify Saved searches end to end");
    // It starts from the server step's branch, the one that step's worker pushed.
    let base = last[0].task.context["baseBranch"].as_str().unwrap();
    assert!(base.ends_with("-build-the-server-side-of-saved"), "{base}");
}

/// Under agent-review the scripted worker also reviews: it approves, and the server — not the
/// reviewer — decides that an approval into `main` goes to a person.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scripted_worker_reviews_prs_under_agent_review() {
    let app = TestApp::new().await;
    let worker = served_worker(&app).await;
    let m = app.mission("Reviewed exports").await;
    let (status, _) = app
        .call(
            "PATCH",
            &format!("/api/missions/{m}"),
            &app.admin,
            Some(serde_json::json!({"mergePolicy": {"tier": "agent-review",
                                    "agentReview": {"reviewerRole": "reviewer"}}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let task = app.task(Some(&m), "Export as CSV").await;
    let claimed = worker.claim_once().await.unwrap();
    assert_eq!(claimed[0].task.id, task);
    worker
        .work(claimed.into_iter().next().unwrap())
        .await
        .unwrap();

    // The PR waits for its reviewer, which the same worker claims and answers.
    let reviewer = worker.claim_once().await.unwrap();
    assert_eq!(reviewer.len(), 1);
    assert!(reviewer[0].task.title.starts_with("[reviewer] PR #"));
    worker
        .work(reviewer.into_iter().next().unwrap())
        .await
        .unwrap();

    let (_, list) = app
        .call("GET", &format!("/api/prs?missionId={m}"), &app.admin, None)
        .await;
    let pr = &list["prs"][0];
    assert_eq!(pr["state"], "open");
    assert_eq!(pr["reviews"][0]["verdict"], "approve");
    assert_eq!(pr["reviews"][0]["outcome"], "escalated");
    assert_eq!(
        pr["reviews"][0]["reasons"][0],
        "model approve: base 'main' is a protected trunk branch — human merge required"
    );
    assert_eq!(pr["evaluation"]["mergeableByPerson"], true);
}

/// A fix the reviewer asks for is pushed by the scripted worker to the same PR, which then
/// gets its second review.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scripted_worker_pushes_a_requested_fix_to_the_same_pr() {
    let app = TestApp::new().await;
    let worker = served_worker(&app).await;
    let m = app.mission("Fixed exports").await;
    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(serde_json::json!({"mergePolicy": {"tier": "agent-review",
                                "agentReview": {"reviewerRole": "reviewer"}}})),
    )
    .await;
    app.task(Some(&m), "Export as JSON").await;
    let claimed = worker.claim_once().await.unwrap();
    worker
        .work(claimed.into_iter().next().unwrap())
        .await
        .unwrap();
    let pr_of = |list: &serde_json::Value| list["prs"][0].clone();
    let (_, list) = app
        .call("GET", &format!("/api/prs?missionId={m}"), &app.admin, None)
        .await;
    let first = pr_of(&list);
    let reviewer = first["reviews"][0]["reviewerTaskId"]
        .as_str()
        .unwrap()
        .to_string();
    // A reviewer (here, the test) asks for changes.
    let (status, body) = app
        .complete_task(
            &reviewer,
            serde_json::json!({"structuredOutput": {"verdict": "request-changes",
                "confidence": 0.7, "summary": "Missing header row.", "feedback": "Add a header row."}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let fix = worker.claim_once().await.unwrap();
    assert_eq!(fix.len(), 1);
    assert!(fix[0].task.title.starts_with("[reviewer retry]"));
    assert_eq!(fix[0].branch, first["headBranch"].as_str().unwrap());
    worker.work(fix.into_iter().next().unwrap()).await.unwrap();

    let (_, list) = app
        .call("GET", &format!("/api/prs?missionId={m}"), &app.admin, None)
        .await;
    assert_eq!(
        list["prs"].as_array().unwrap().len(),
        1,
        "the same PR: {list}"
    );
    let second = pr_of(&list);
    assert_eq!(second["number"], first["number"]);
    assert_ne!(second["headSha"], first["headSha"]);
    assert_eq!(second["reviews"][0]["iteration"], 2);
}

/// The demo's organizer goes round the loop: a first plan, a follow-up that builds on it
/// once that work landed, then a proposal that completes the mission.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scripted_organizer_plans_in_rounds_until_it_proposes_completion() {
    let app = TestApp::new().await;
    let worker = served_worker(&app).await;
    let m = app
        .mission_with(serde_json::json!({"title": "Saved searches"}))
        .await;
    let mut approved = Vec::new();
    for _ in 0..80 {
        if app.mission_json(&m).await["status"] == "completed" {
            break;
        }
        let claimed = worker.claim_once().await.unwrap();
        let idle = claimed.is_empty();
        for c in claimed {
            worker.work(c).await.unwrap();
        }
        if !idle {
            continue;
        }
        // Nothing to claim: a person approves the plan in review and merges what is ready.
        let mission = app.mission_json(&m).await;
        let tasks = mission["tasks"].as_array().unwrap();
        let in_review = tasks.iter().find(|t| {
            t["mode"] == "planning"
                && t["status"] == "completed"
                && !t["result"]["structuredOutput"]["plan"]
                    .as_array()
                    .unwrap()
                    .is_empty()
                && !tasks.iter().any(|c| c["parentTaskId"] == t["id"])
        });
        if let Some(run) = in_review {
            let id = run["id"].as_str().unwrap().to_string();
            let (status, body) = app
                .call(
                    "POST",
                    &format!("/api/tasks/{id}/approve-plan"),
                    &app.admin,
                    None,
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            approved.push(id);
            continue;
        }
        let (_, prs) = app
            .call("GET", &format!("/api/prs?missionId={m}"), &app.admin, None)
            .await;
        let open: Vec<i64> = prs["prs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["state"] != "merged" && p["state"] != "closed")
            .map(|p| p["number"].as_i64().unwrap())
            .collect();
        assert!(!open.is_empty(), "stuck with nothing to do: {mission}");
        for n in open {
            let (status, body) = app.merge_pr(n, &app.admin).await;
            assert_eq!(status, StatusCode::OK, "PR #{n}: {body}");
        }
    }
    let mission = app.mission_json(&m).await;
    assert_eq!(mission["status"], "completed", "{mission}");
    let runs: Vec<&serde_json::Value> = mission["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["mode"] == "planning")
        .collect();
    assert_eq!(runs.len(), 3, "{runs:?}");
    assert_eq!(approved.len(), 2);
    let second = app.task_json(&approved[1]).await;
    assert!(
        second["result"]["structuredOutput"]["plan"][0]["title"]
            .as_str()
            .unwrap()
            .starts_with("Close the gaps"),
        "{second}"
    );
    let last = runs
        .iter()
        .find(|r| !approved.iter().any(|a| r["id"] == *a))
        .unwrap();
    let last = app.task_json(last["id"].as_str().unwrap()).await;
    assert_eq!(last["result"]["structuredOutput"]["missionComplete"], true);
    assert_eq!(
        last["result"]["structuredOutput"]["plan"],
        serde_json::json!([])
    );
}
