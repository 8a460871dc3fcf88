//! An auto mission goes round the planning loop twice and completes on its organizer's
//! proposal; the mission page says where completion stands at each stage.

use crate::fixtures::api::{
    approve_plan, mission, mission_workspace, new_mission_with, notes_of_type, planned,
};
use crate::fixtures::{opened, Page};
use buildd_testkit::{Api, Browser, TestServer, WorkerVerbs};
use serde_json::{json, Value};

const STANDING: &str = "[data-testid=completion-standing]";

fn plan(steps: &[&str], proposes: bool) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"ref": format!("s{i}"), "title": t, "description": "Do it", "outputRequirement": "none"}))
        .collect();
    json!({"plan": steps, "summary": "The next step", "missionComplete": proposes})
}

async fn standing_is(browser: &Browser, expected: &str) {
    browser.wait_text(STANDING, |t| t == expected).await;
}

/// The run in flight that finished work opened, by its mission's tasks.
async fn next_run(server: &TestServer, id: &str) -> String {
    let m = mission(server, id).await;
    let run = m["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["mode"] == "planning" && t["status"] == "pending")
        .unwrap_or_else(|| panic!("finished work opened no organizer run: {m}"))
        .clone();
    run["id"].as_str().unwrap().to_string()
}

/// The only child of an approved plan.
async fn child_of(server: &TestServer, id: &str, run: &str) -> String {
    let m = mission(server, id).await;
    let child = m["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["parentTaskId"] == run)
        .unwrap_or_else(|| panic!("nothing filed from {run}: {m}"))
        .clone();
    child["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_plans_twice_then_completes_on_its_organizers_proposal() {
    let server = TestServer::start_demo().await;
    let id = new_mission_with(
        &server,
        json!({"title": "Two rounds", "isHeartbeat": false}),
    )
    .await;

    // Round one: a plan of one step, approved; the step is open.
    let first = planned(&server, &id, plan(&["Audit the flow"], false)).await;
    assert_eq!(approve_plan(&server, &first).await, 200);
    let browser = opened(&server, Page::Mission(&id)).await;
    standing_is(&browser, "Not complete yet: 1 task still open.").await;

    // It finishes; the organizer said it is not done, so its next run opens.
    let step = child_of(&server, &id, &first).await;
    server
        .complete_task(&step, json!({"summary": "Audited"}))
        .await;
    standing_is(&browser, "Not complete yet: the organizer is planning.").await;

    // Round two builds on it and waits for review, then its step lands with a PR.
    let second = next_run(&server, &id).await;
    server
        .complete_with_output(&second, plan(&["Fix what the audit found"], false))
        .await;
    standing_is(&browser, "Not complete yet: a plan waits for review.").await;
    assert_eq!(approve_plan(&server, &second).await, 200);
    let fix = child_of(&server, &id, &second).await;
    let worker = server.claim_task(&fix).await;
    server
        .report_ok(
            &worker,
            json!({"status": "completed", "summary": "Fixed", "prNumber": 7,
                   "prUrl": "https://github.com/acme/storefront/pull/7", "baseBranch": "main",
                   "headSha": "feedface07"}),
        )
        .await;
    standing_is(
        &browser,
        "Not complete yet: the organizer is planning, PR #7 not merged.",
    )
    .await;

    // The third run proposes completion; the unmerged PR holds it, and the feed says so once.
    let third = next_run(&server, &id).await;
    server.complete_with_output(&third, plan(&[], true)).await;
    standing_is(
        &browser,
        "The organizer proposed completion; waiting for PR #7 to merge.",
    )
    .await;
    let warnings = notes_of_type(&server, &id, "warning").await;
    let waiting: Vec<&Value> = warnings["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["title"] == "Mission awaiting verification")
        .collect();
    assert_eq!(waiting.len(), 1, "{warnings}");
    assert_eq!(mission(&server, &id).await["status"], "active");

    // CI passes and a person merges: the mission completes by itself.
    let ws = mission_workspace(&server).await;
    let check = json!({"workspaceId": ws, "headSha": "feedface07", "name": "test",
                       "status": "completed", "conclusion": "success"});
    let (status, body) = server
        .send("POST", "/api/prs/7/checks", &server.worker_key, Some(check))
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = server
        .admin("POST", "/api/prs/7/merge", Some(json!({"workspaceId": ws})))
        .await;
    assert_eq!(status, 200, "{body}");
    standing_is(
        &browser,
        "Completed: the organizer proposed it and every deliverable landed.",
    )
    .await;
    assert_eq!(mission(&server, &id).await["status"], "completed");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_that_planned_nothing_says_so_and_what_starts_the_next() {
    let server = TestServer::start_demo().await;
    let id = new_mission_with(
        &server,
        json!({"title": "Quiet week", "isHeartbeat": false}),
    )
    .await;
    let output = json!({"plan": [], "summary": "Nothing changed since the last run.",
                        "missionComplete": false});
    planned(&server, &id, output).await;
    let browser = opened(&server, Page::Mission(&id)).await;
    let said = browser
        .wait_text("[data-testid=planned-nothing]", |t| !t.is_empty())
        .await;
    assert_eq!(
        said,
        "The organizer's last run planned nothing: Nothing changed since the last run. It plans \
         again after a note, Run or a check-in."
    );
    standing_is(&browser, "Not complete yet: no deliverable tasks yet.").await;
    browser.close().await;
}
