//! An auto mission goes round the planning loop until its organizer says the work is done:
//! finished work opens the next organizer run, and the mission completes only on a proposal
//! the rule verifies. A proposal that cannot be honoured yet is said once and completes the
//! mission when its blocker clears.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

/// An auto mission with check-ins on: its first organizer run opens at creation.
async fn auto_mission(app: &TestApp, title: &str) -> String {
    app.mission_with(json!({"title": title})).await
}

/// The organizer run in flight.
async fn run_in_flight(app: &TestApp, mission: &str) -> String {
    let m = app.mission_json(mission).await;
    m["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["mode"] == "planning"
                && !["completed", "failed", "cancelled"].contains(&t["status"].as_str().unwrap())
        })
        .unwrap_or_else(|| panic!("no organizer run in flight: {m}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The run's plan: steps titled `steps`, none depending on another.
fn plan(steps: &[&str], proposes: bool) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .enumerate()
        .map(|(i, title)| {
            json!({"ref": format!("s{i}"), "title": title, "description": "Do it",
                   "outputRequirement": "none"})
        })
        .collect();
    json!({"plan": steps, "summary": "Next step", "missionComplete": proposes})
}

/// The organizer run in flight plans `steps`, and a person approves; returns the children.
async fn plan_and_approve(app: &TestApp, mission: &str, steps: &[&str]) -> Vec<String> {
    let run = run_in_flight(app, mission).await;
    app.complete_with_output(&run, plan(steps, false)).await;
    let (status, approved) = app
        .call(
            "POST",
            &format!("/api/tasks/{run}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    approved["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// Completes the aggregation task the last of a plan's steps opened.
async fn finish_aggregation(app: &TestApp, mission: &str) {
    let m = app.mission_json(mission).await;
    let agg = m["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["title"]
                .as_str()
                .unwrap()
                .starts_with("Aggregate results:")
                && t["status"] == "pending"
        })
        .unwrap_or_else(|| panic!("no aggregation pending: {m}"))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, body) = app
        .complete_task(&agg, json!({"summary": "Gathered"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

async fn run_labels(app: &TestApp, mission: &str) -> Vec<String> {
    app.run_labels(mission).await
}

async fn feed(app: &TestApp, mission: &str) -> Vec<Value> {
    let (status, feed) = app
        .call(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{feed}");
    feed["notes"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_auto_mission_plans_again_until_its_organizer_proposes_completion() {
    let app = TestApp::new().await;
    let m = auto_mission(&app, "Checkout").await;

    // Round one: a one-step plan, approved and finished. The organizer said "not done".
    let first = plan_and_approve(&app, &m, &["Audit checkout"]).await;
    let (status, body) = app
        .complete_task(&first[0], json!({"summary": "Audited"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(app.mission_json(&m).await["status"], "active");
    let labels = run_labels(&app, &m).await;
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert_eq!(labels[0], "after Audit checkout finished");

    // Round two: two steps building on it, then the aggregation of their results.
    let second = plan_and_approve(&app, &m, &["Build the flow", "Write the docs"]).await;
    for step in &second {
        app.complete_task(step, json!({"summary": "Done"})).await;
    }
    assert_eq!(
        run_labels(&app, &m).await.len(),
        2,
        "the aggregation is still open"
    );
    finish_aggregation(&app, &m).await;
    assert_eq!(app.mission_json(&m).await["status"], "active");
    let labels = run_labels(&app, &m).await;
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert!(
        labels[0].starts_with("after Aggregate results:"),
        "{labels:?}"
    );

    // Round three proposes completion with nothing more to do: the rule holds, it completes.
    let last = run_in_flight(&app, &m).await;
    app.complete_with_output(&last, plan(&[], true)).await;
    let done = app.mission_json(&m).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["checkIns"]["enabled"], false);
    assert_eq!(run_labels(&app, &m).await.len(), 3);
}

#[tokio::test]
async fn an_empty_plan_that_does_not_propose_waits_for_a_trigger() {
    let app = TestApp::new().await;
    let m = auto_mission(&app, "Quiet").await;
    let run = run_in_flight(&app, &m).await;
    app.complete_with_output(&run, plan(&[], false)).await;
    let mission = app.mission_json(&m).await;
    assert_eq!(mission["status"], "active");
    assert_eq!(
        run_labels(&app, &m).await.len(),
        1,
        "nothing opened another run"
    );
    // Nothing waits for review: an empty plan is no plan to approve.
    let (status, body) = app
        .call(
            "POST",
            &format!("/api/tasks/{run}/approve-plan"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn a_proposal_over_an_unmerged_pr_waits_and_completes_when_it_merges() {
    let app = TestApp::new().await;
    let m = auto_mission(&app, "Payments").await;
    let step = plan_and_approve(&app, &m, &["Add the refund endpoint"]).await;
    let (status, body) = app
        .complete_task(
            &step[0],
            json!({"summary": "done", "prNumber": 12,
                   "prUrl": "https://github.com/acme/web/pull/12", "baseBranch": "main",
                   "headBranch": "buildd/refunds", "headSha": SHA}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    app.propose_completion(&m).await;
    assert_eq!(app.mission_json(&m).await["status"], "active");
    let said = |notes: &[Value]| {
        notes
            .iter()
            .filter(|n| n["title"] == "Mission awaiting verification")
            .cloned()
            .collect::<Vec<_>>()
    };
    let notes = said(&feed(&app, &m).await);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0]["body"]
            .as_str()
            .unwrap()
            .starts_with("awaiting verification: PR #12 not merged"),
        "{notes:?}"
    );
    // Something else finishing re-checks the proposal but says it no second time, and opens
    // no organizer run over a proposal that waits only for a merge.
    let chore = app.task(Some(&m), "Tidy the changelog").await;
    app.complete_task(&chore, json!({"summary": "tidied"}))
        .await;
    assert_eq!(said(&feed(&app, &m).await).len(), 1);
    assert_eq!(run_labels(&app, &m).await.len(), 2);

    // CI passes and a person merges the PR: the mission completes by itself.
    let (status, body) = app.check_run(12, SHA, "completed", Some("success")).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, merged) = app.merge_pr(12, &app.admin).await;
    assert_eq!(
        (status, merged["state"].as_str()),
        (StatusCode::OK, Some("merged")),
        "{merged}"
    );
    assert_eq!(app.mission_json(&m).await["status"], "completed");
}

#[tokio::test]
async fn a_proposal_over_open_work_completes_when_the_work_finishes() {
    let app = TestApp::new().await;
    let m = auto_mission(&app, "Search").await;
    let steps = plan_and_approve(&app, &m, &["Index", "Rank"]).await;
    app.complete_task(&steps[0], json!({"summary": "indexed"}))
        .await;
    let worker = app.claim_task(&steps[1]).await;
    // A person presses Run while "Rank" is still open; the organizer proposes completion.
    let (status, body) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert!(status.is_success(), "{body}");
    app.propose_completion(&m).await;
    assert_eq!(app.mission_json(&m).await["status"], "active");
    let notes = feed(&app, &m).await;
    let waiting = notes
        .iter()
        .find(|n| n["title"] == "Mission awaiting verification")
        .unwrap_or_else(|| panic!("{notes:?}"));
    assert!(
        waiting["body"]
            .as_str()
            .unwrap()
            .contains("1 task still open"),
        "{waiting}"
    );
    app.report_ok(&worker, json!({"status": "completed"})).await;
    assert_eq!(
        app.mission_json(&m).await["status"],
        "active",
        "the aggregation is open"
    );
    finish_aggregation(&app, &m).await;
    assert_eq!(app.mission_json(&m).await["status"], "completed");
    assert_eq!(
        run_labels(&app, &m).await.len(),
        2,
        "the proposal stood: no third run"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_tasks_finishing_together_open_one_run_and_never_complete_early() {
    let app = std::sync::Arc::new(TestApp::new().await);
    for round in 0..4 {
        let m = auto_mission(&app, &format!("Race {round}")).await;
        let step = plan_and_approve(&app, &m, &["Planned step"]).await;
        let filed = app.task(Some(&m), "Filed by a person").await;
        let workers = [app.claim_task(&step[0]).await, app.claim_task(&filed).await];
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
        let mission = app.mission_json(&m).await;
        assert_eq!(mission["status"], "active", "{mission}");
        assert_eq!(app.run_labels(&m).await.len(), 2, "round {round}");
    }
}
