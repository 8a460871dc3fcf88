//! The agent-review tier end to end over HTTP: a reviewer task per head commit, its verdict
//! checked against the PR as it is when it lands, fixes on the same branch, stall notices.

mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use common::*;
use serde_json::{json, Value};

const SHA: &str = "abc1234def5678";

fn src_files() -> Value {
    json!([{"path": "src/cart.rs", "status": "modified", "additions": 30, "deletions": 4,
            "patch": "@@ -1,2 +1,3 @@ fn cart() {\n a\n+b\n c"}])
}

async fn agent_review_mission(app: &TestApp, extra: Value) -> String {
    let m = app.mission("Reviewed cart").await;
    let mut policy = json!({"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}});
    if let Value::Object(more) = extra {
        policy["agentReview"].as_object_mut().unwrap().extend(more);
    }
    let (status, body) = app
        .call(
            "PATCH",
            &format!("/api/missions/{m}"),
            &app.admin,
            Some(json!({"mergePolicy": policy})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    m
}

/// Task "Change `number`" of `mission` completed with PR `number` into `base`.
async fn open_pr(
    app: &TestApp,
    mission: &str,
    number: i64,
    base: &str,
    sha: &str,
    files: Value,
) -> String {
    let t = app.task(Some(mission), &format!("Change {number}")).await;
    let (status, answer) = app
        .complete_task(&t, json!({"summary": "done", "prNumber": number,
            "prUrl": format!("https://github.com/acme/web/pull/{number}"),
            "baseBranch": base, "headBranch": format!("buildd/{number}"), "headSha": sha, "files": files}))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    t
}

async fn green(app: &TestApp, number: i64, sha: &str) -> Value {
    let (status, pr) = app
        .check_run(number, sha, "completed", Some("success"))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{pr}");
    pr
}

async fn pr(app: &TestApp, mission: &str, number: i64) -> Value {
    app.pr_json(mission, number).await
}

async fn notes(app: &TestApp, mission: &str) -> Vec<Value> {
    let (status, page) = app
        .call(
            "GET",
            &format!("/api/missions/{mission}/notes"),
            &app.admin,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    page["notes"].as_array().unwrap().clone()
}

/// The pending fix the reviewer asked for on the PR of task `title`.
async fn fix_task(app: &TestApp, mission: &str, title: &str) -> String {
    let (_, page) = app
        .call(
            "GET",
            &format!("/api/tasks?missionId={mission}&status=pending"),
            &app.admin,
            None,
        )
        .await;
    let wanted = format!("[reviewer retry] {title}");
    page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"] == wanted.as_str())
        .unwrap_or_else(|| panic!("no fix task: {page}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn reviewer_of(pr: &Value) -> String {
    pr["reviews"][0]["reviewerTaskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no reviewer task: {pr}"))
        .to_string()
}

async fn verdict(app: &TestApp, reviewer: &str, output: Value) -> (StatusCode, Value) {
    app.complete_task(
        reviewer,
        json!({"summary": "reviewed", "structuredOutput": output}),
    )
    .await
}

#[tokio::test]
async fn a_pr_under_agent_review_gets_a_reviewer_task_and_waits_for_its_verdict() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    let task = open_pr(&app, &m, 80, "main", SHA, src_files()).await;
    let p = pr(&app, &m, 80).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 1, "{p}");
    assert_eq!(p["reviews"][0]["iteration"], 1);
    assert!(p["reviews"][0]["verdict"].is_null());
    assert_eq!(
        p["evaluation"]["reasons"],
        json!([
            "no CI check run reported for head commit abc1234",
            "Agent review — set on this mission: waiting for the reviewer's verdict"
        ])
    );
    let reviewer = app.task_json(&reviewer_of(&p)).await;
    assert_eq!(reviewer["title"], "[reviewer] PR #80: Change 80");
    assert_eq!(reviewer["taskClass"], "attempt");
    assert_eq!(reviewer["parentTaskId"], task.as_str());
    assert_eq!(reviewer["roleSlug"], "reviewer");
    assert_eq!(reviewer["category"], "review");
    assert_eq!(reviewer["context"]["reviewerFor"], task.as_str());
    let brief = reviewer["description"].as_str().unwrap();
    assert!(
        brief.contains("- src/cart.rs (modified, +30/-4)"),
        "{brief}"
    );
    assert!(
        !brief.contains("__new hunk__"),
        "names only by default: {brief}"
    );

    // CI for the same head starts no second review; nobody merges before the verdict.
    let p = green(&app, 80, SHA).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 1);
    assert_eq!(p["evaluation"]["mergeableByPerson"], false);
    let (status, refused) = app.merge_pr(80, &app.admin).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");

    // A reviewer must answer with a verdict.
    let reviewer = reviewer_of(&p);
    let worker = app.claim_task(&reviewer).await;
    let (status, body) = app
        .report(
            &worker,
            json!({"status": "completed", "structuredOutput": {"verdict": "lgtm"}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["errors"],
        json!([
            "structuredOutput.verdict: must be one of approve, request-changes, escalate",
            "structuredOutput.confidence: required",
            "structuredOutput.summary: required"
        ])
    );
}

#[tokio::test]
async fn an_approval_into_a_trunk_goes_to_a_person_who_merges_it() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    open_pr(&app, &m, 81, "main", SHA, src_files()).await;
    let p = green(&app, 81, SHA).await;
    let (status, body) = verdict(
        &app,
        &reviewer_of(&p),
        json!({"verdict": "approve", "confidence": 0.9, "summary": "Sound."}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let p = pr(&app, &m, 81).await;
    assert_eq!(p["state"], "open");
    assert_eq!(p["reviews"][0]["verdict"], "approve");
    assert_eq!(p["reviews"][0]["outcome"], "escalated");
    assert_eq!(
        p["reviews"][0]["reasons"],
        json!(["model approve: base 'main' is a protected trunk branch — human merge required"])
    );
    assert_eq!(p["evaluation"]["mergeableByPerson"], true);
    let escalated = &notes(&app, &m).await[0];
    assert_eq!(escalated["type"], "reviewer_escalated");
    assert_eq!(escalated["title"], "PR #81 escalated to you");
    let (status, merged) = app.merge_pr(81, &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{merged}");
    assert_eq!(merged["state"], "merged");
}

#[tokio::test]
async fn an_approval_merges_into_the_missions_integration_branch_with_a_build_proof() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    let branch = working_branch(&app, &m).await;
    assert!(branch.starts_with("mission/reviewed-cart-"), "{branch}");

    // Without a build proof for the head the approval escalates.
    open_pr(&app, &m, 82, &branch, SHA, src_files()).await;
    let p = pr(&app, &m, 82).await;
    verdict(
        &app,
        &reviewer_of(&p),
        json!({"verdict": "approve", "confidence": 0.9, "summary": "Sound."}),
    )
    .await;
    let p = pr(&app, &m, 82).await;
    assert_eq!(p["state"], "open");
    assert_eq!(
        p["reviews"][0]["reasons"][0],
        "no build/test check reported for head commit abc1234: an absent check run is not a pass"
    );

    open_pr(&app, &m, 83, &branch, SHA, src_files()).await;
    let p = green(&app, 83, SHA).await;
    let reviewer = reviewer_of(&p);
    let (status, body) = verdict(
        &app,
        &reviewer,
        json!({"verdict": "approve", "confidence": 0.9, "summary": "Sound."}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let p = pr(&app, &m, 83).await;
    assert_eq!(p["state"], "merged", "{p}");
    assert_eq!(p["reviews"][0]["outcome"], "merged");
    let mut tx = app.db.read().await.unwrap();
    let (by,): (String,) = sql::query_as("SELECT r.merged_by FROM release_events r JOIN pull_requests p ON p.id = r.pr_id WHERE p.number = 83")
        .fetch_one(&mut tx)
        .await
        .unwrap();
    assert_eq!(by, format!("reviewer:{reviewer}"));
}

#[tokio::test]
async fn escalation_triggers_are_rechecked_from_the_file_list_when_the_verdict_lands() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({"escalateToPaths": ["billing/"]})).await;
    // Unsafe from the start: a person gets it without a reviewer.
    open_pr(
        &app,
        &m,
        84,
        "main",
        SHA,
        json!([{"path": "migrations/0009_drop.sql", "status": "added",
        "additions": 1, "deletions": 0, "patch": "+DROP TABLE carts;"}]),
    )
    .await;
    let p = pr(&app, &m, 84).await;
    assert!(p["reviews"][0]["reviewerTaskId"].is_null(), "{p}");
    assert_eq!(p["reviews"][0]["outcome"], "escalated");
    assert!(p["reviews"][0]["reasons"][0]
        .as_str()
        .unwrap()
        .starts_with("migration: "));

    // A file added while the reviewer worked is caught when the approval lands.
    let branch = working_branch(&app, &m).await;
    let task = open_pr(&app, &m, 85, &branch, SHA, src_files()).await;
    let reviewer = reviewer_of(&pr(&app, &m, 85).await);
    let mut tx = app.db.write().await.unwrap();
    sql::query("UPDATE pull_requests SET files = ? WHERE number = 85")
        .bind(json!([{"path": "src/cart.rs", "status": "modified", "additions": 3, "deletions": 0},
                     {"path": "billing/rates.rs", "status": "added", "additions": 9, "deletions": 0}]).to_string())
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    green(&app, 85, SHA).await;
    verdict(
        &app,
        &reviewer,
        json!({"verdict": "approve", "confidence": 0.95, "summary": "Fine."}),
    )
    .await;
    let p = pr(&app, &m, 85).await;
    assert_eq!(p["state"], "open");
    assert_eq!(
        p["reviews"][0]["reasons"],
        json!(["touches escalation path billing/rates.rs (matched billing/)"])
    );
    let _ = task;
}

#[tokio::test]
async fn requested_changes_go_back_to_the_same_branch_until_the_limit() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    let root = open_pr(&app, &m, 86, "main", SHA, src_files()).await;
    for iteration in 1..=3 {
        let p = pr(&app, &m, 86).await;
        assert_eq!(p["reviews"][0]["iteration"], iteration, "{p}");
        let (status, body) = verdict(&app, &reviewer_of(&p), json!({"verdict": "request-changes",
            "confidence": 0.7, "summary": "Not yet.", "feedback": format!("Fix round {iteration}")})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let p = pr(&app, &m, 86).await;
        if iteration == 3 {
            assert_eq!(p["reviews"][0]["outcome"], "escalated");
            assert_eq!(
                p["reviews"][0]["reasons"],
                json!(["the reviewer requested changes 3 times: a person decides"])
            );
            break;
        }
        assert_eq!(p["reviews"][0]["outcome"], "retry");
        // The fix: an attempt under the same deliverable, on the PR's branch, with the feedback.
        let fix = fix_task(&app, &m, "Change 86").await;
        let fix_task = app.task_json(&fix).await;
        assert_eq!(fix_task["parentTaskId"], root.as_str());
        assert_eq!(fix_task["context"]["headBranch"], "buildd/86");
        assert_eq!(fix_task["context"]["iteration"], iteration + 1);
        assert!(fix_task["description"]
            .as_str()
            .unwrap()
            .contains(&format!("Fix round {iteration}")));
        let sha = format!("f1x{iteration}000000");
        let (status, body) = app
            .complete_task(
                &fix,
                json!({"summary": "fixed", "prNumber": 86, "prUrl": "https://github.com/acme/web/pull/86", "baseBranch": "main",
                "headBranch": "buildd/86", "headSha": sha, "files": src_files()}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let p = pr(&app, &m, 86).await;
        assert_eq!(p["taskId"], root.as_str(), "the PR stays its deliverable's");
        assert_eq!(p["headSha"], sha.as_str());
    }
    let kinds: Vec<String> = notes(&app, &m)
        .await
        .iter()
        .map(|n| n["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "reviewer_escalated",
            "reviewer_request_changes",
            "reviewer_request_changes"
        ]
    );
}

#[tokio::test]
async fn approve_only_leaves_the_merge_to_a_person_and_a_lost_reviewer_escalates() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({"gateCondition": "approve-only"})).await;
    open_pr(&app, &m, 87, "main", SHA, src_files()).await;
    let p = green(&app, 87, SHA).await;
    verdict(
        &app,
        &reviewer_of(&p),
        json!({"verdict": "approve", "confidence": 0.9, "summary": "Good."}),
    )
    .await;
    let p = pr(&app, &m, 87).await;
    assert_eq!(p["reviews"][0]["outcome"], "awaiting_person");
    assert_eq!(p["evaluation"]["mergeableByPerson"], true);
    assert_eq!(
        p["evaluation"]["reasons"],
        json!(["Agent review — set on this mission: the reviewer approved; a person merges"])
    );

    open_pr(&app, &m, 88, "main", SHA, src_files()).await;
    let reviewer = reviewer_of(&pr(&app, &m, 88).await);
    app.fail_task(&reviewer, "runner crashed").await;
    let p = pr(&app, &m, 88).await;
    assert_eq!(p["reviews"][0]["outcome"], "escalated");
    assert_eq!(
        p["reviews"][0]["reasons"],
        json!(["the reviewer run ended without a verdict (failed)"])
    );
}

#[tokio::test]
async fn patch_evidence_gives_the_reviewer_the_numbered_diff() {
    let app = TestApp::new().await;
    let (status, body) = app
        .call(
            "PATCH",
            &format!("/api/workspaces/{}", app.workspace),
            &app.admin,
            Some(json!({"gitConfig": {"policyConfig": {"reviewerPatchEvidence": true}}})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let m = agent_review_mission(&app, json!({})).await;
    open_pr(&app, &m, 89, "main", SHA, src_files()).await;
    let reviewer = app.task_json(&reviewer_of(&pr(&app, &m, 89).await)).await;
    let brief = reviewer["description"].as_str().unwrap();
    assert!(brief.contains("## File: 'src/cart.rs'"), "{brief}");
    assert!(
        brief.contains("2 +b"),
        "added lines carry their numbers: {brief}"
    );
}

#[tokio::test]
async fn a_waiting_pr_tells_its_mission_once_per_quiet_spell() {
    let app = TestApp::new().await;
    let m = app.mission("Held cart").await;
    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"mergePolicy": {"tier": "human", "stallNotifyMinutes": 10}})),
    )
    .await;
    open_pr(&app, &m, 90, "main", SHA, src_files()).await;
    green(&app, 90, SHA).await;
    let now = chrono::Utc::now();
    assert_eq!(
        buildd_server::scheduler::notify_stalls(&app.db, now + chrono::Duration::minutes(5))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        buildd_server::scheduler::notify_stalls(&app.db, now + chrono::Duration::minutes(11))
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        buildd_server::scheduler::notify_stalls(&app.db, now + chrono::Duration::minutes(60))
            .await
            .unwrap(),
        0
    );
    let stalled = &notes(&app, &m).await[0];
    assert_eq!(stalled["type"], "warning");
    assert!(
        stalled["title"]
            .as_str()
            .unwrap()
            .starts_with("PR #90 has waited "),
        "{stalled}"
    );
    assert!(
        stalled["body"]
            .as_str()
            .unwrap()
            .contains("a person merges this PR"),
        "{stalled}"
    );
}

/// Runs the organizer of mission `m` and finishes its planning; the working branch that
/// first run named.
async fn working_branch(app: &TestApp, m: &str) -> String {
    let (status, _) = app
        .call("POST", &format!("/api/missions/{m}/run"), &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::CREATED);
    app.finish_planning(m).await;
    app.mission_json(m).await["workingBranch"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A mission under agent-review whose first organizer run named its working branch.
async fn with_working_branch(app: &TestApp, extra: Value) -> (String, String) {
    let m = agent_review_mission(app, extra).await;
    let branch = working_branch(app, &m).await;
    (m, branch)
}

#[tokio::test]
async fn an_approval_while_ci_runs_waits_for_it() {
    let app = TestApp::new().await;
    let (m, branch) = with_working_branch(&app, json!({})).await;
    open_pr(&app, &m, 91, &branch, SHA, src_files()).await;
    app.call("POST", "/api/prs/91/checks", &app.worker,
             Some(json!({"workspaceId": app.workspace, "headSha": SHA, "name": "test", "status": "in_progress"})))
        .await;
    let reviewer = reviewer_of(&pr(&app, &m, 91).await);
    verdict(
        &app,
        &reviewer,
        json!({"verdict": "approve", "confidence": 0.8, "summary": "Good."}),
    )
    .await;
    let p = pr(&app, &m, 91).await;
    assert_eq!(p["reviews"][0]["outcome"], "awaiting_ci");
    assert_eq!(
        p["evaluation"]["reasons"].as_array().unwrap().last().unwrap(),
        "Agent review — set on this mission: the reviewer approved; the merge waits for CI on the head commit"
    );
    let p = green(&app, 91, SHA).await;
    assert_eq!(p["state"], "merged", "{p}");
    assert_eq!(p["reviews"][0]["outcome"], "merged");
}

#[tokio::test]
async fn with_auto_merge_off_an_approval_waits_for_a_person() {
    let app = TestApp::new().await;
    app.call(
        "PATCH",
        &format!("/api/workspaces/{}", app.workspace),
        &app.admin,
        Some(json!({"gitConfig": {"autoMergeOnGreenCI": false}})),
    )
    .await;
    let (m, branch) = with_working_branch(&app, json!({})).await;
    open_pr(&app, &m, 92, &branch, SHA, src_files()).await;
    let p = green(&app, 92, SHA).await;
    verdict(
        &app,
        &reviewer_of(&p),
        json!({"verdict": "approve", "confidence": 0.8, "summary": "Good."}),
    )
    .await;
    let p = pr(&app, &m, 92).await;
    assert_eq!(p["state"], "open");
    assert_eq!(p["reviews"][0]["outcome"], "awaiting_person");
    assert_eq!(p["evaluation"]["mergeableByPerson"], true);
}

#[tokio::test]
async fn a_newer_commit_makes_a_running_review_stale() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    let task = open_pr(&app, &m, 93, "main", SHA, src_files()).await;
    let first = reviewer_of(&pr(&app, &m, 93).await);
    // The same deliverable pushes again (e.g. a retried run) before the reviewer answered.
    let again = app.task(Some(&m), "Change 93 again").await;
    let (status, body) = app
        .complete_task(
            &again,
            json!({"summary": "again", "prNumber": 93,
            "prUrl": "https://github.com/acme/web/pull/93", "baseBranch": "main",
            "headBranch": "buildd/93", "headSha": "5ec0ndc0mm1t", "files": src_files()}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let p = pr(&app, &m, 93).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 2);
    assert_eq!(p["reviews"][0]["headSha"], "5ec0ndc0mm1t");
    assert_eq!(
        p["reviews"][0]["iteration"], 1,
        "a stale review is not a round"
    );
    assert_eq!(p["reviews"][1]["outcome"], "stale");
    assert_eq!(app.task_json(&first).await["status"], "cancelled");
    let _ = task;
}

#[tokio::test]
async fn a_fix_that_ends_without_a_commit_sends_the_pr_to_a_person() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    open_pr(&app, &m, 94, "main", SHA, src_files()).await;
    green(&app, 94, SHA).await;
    let reviewer = reviewer_of(&pr(&app, &m, 94).await);
    verdict(
        &app,
        &reviewer,
        json!({"verdict": "request-changes", "confidence": 0.6,
        "summary": "Needs work.", "feedback": "Handle empty carts."}),
    )
    .await;
    let fix = fix_task(&app, &m, "Change 94").await;
    app.fail_task(&fix, "could not push").await;
    let p = pr(&app, &m, 94).await;
    assert_eq!(p["reviews"][0]["outcome"], "escalated");
    assert_eq!(
        p["reviews"][0]["reasons"],
        json!(["the fix the reviewer asked for ended without a new commit (failed)"])
    );
    assert_eq!(p["evaluation"]["mergeableByPerson"], true);
}

#[tokio::test]
async fn switching_a_mission_to_agent_review_starts_reviews_of_its_open_prs() {
    let app = TestApp::new().await;
    let m = app.mission("Switched").await;
    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"mergePolicy": {"tier": "human"}})),
    )
    .await;
    open_pr(&app, &m, 95, "main", SHA, src_files()).await;
    assert!(pr(&app, &m, 95).await["reviews"]
        .as_array()
        .unwrap()
        .is_empty());
    let (status, _) = app
        .call("PATCH", &format!("/api/missions/{m}"), &app.admin,
              Some(json!({"mergePolicy": {"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}}})))
        .await;
    assert_eq!(status, StatusCode::OK);
    let p = pr(&app, &m, 95).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 1, "{p}");
    assert!(p["reviews"][0]["reviewerTaskId"].is_string());
}

#[tokio::test]
async fn leaving_agent_review_stops_the_review_in_flight() {
    let app = TestApp::new().await;
    let (m, branch) = with_working_branch(&app, json!({})).await;
    open_pr(&app, &m, 96, &branch, SHA, src_files()).await;
    let p = green(&app, 96, SHA).await;
    let reviewer = reviewer_of(&p);
    let worker = app.claim_task(&reviewer).await;
    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"mergePolicy": {"tier": "human"}})),
    )
    .await;
    // The review in flight ends and its reviewer is stopped; its late verdict is refused.
    let p = pr(&app, &m, 96).await;
    assert_eq!(p["reviews"][0]["outcome"], "stale");
    assert_eq!(app.task_json(&reviewer).await["status"], "cancelled");
    let (status, _) = app
        .report(
            &worker,
            json!({"status": "completed", "structuredOutput":
                {"verdict": "approve", "confidence": 0.9, "summary": "Good."}}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let p = pr(&app, &m, 96).await;
    assert_eq!(p["state"], "open", "a person merges under the human tier");
    // Back under agent review, the same commit gets a fresh reviewer.
    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"mergePolicy": {"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}}})),
    )
    .await;
    let p = pr(&app, &m, 96).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 2, "{p}");
    assert!(p["reviews"][0]["outcome"].is_null());
    assert_ne!(
        p["reviews"][0]["reviewerTaskId"],
        p["reviews"][1]["reviewerTaskId"]
    );
}

#[tokio::test]
async fn clearing_requires_review_under_an_agent_review_default_starts_the_review() {
    let app = TestApp::new().await;
    app.call(
        "PATCH",
        &format!("/api/workspaces/{}", app.workspace),
        &app.admin,
        Some(json!({"gitConfig": {"mergePolicy": {"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}}}})),
    )
    .await;
    let m = app
        .mission_with(
            json!({"title": "Held", "orchestrationMode": "manual", "requiresReview": true}),
        )
        .await;
    open_pr(&app, &m, 97, "main", SHA, src_files()).await;
    assert!(pr(&app, &m, 97).await["reviews"]
        .as_array()
        .unwrap()
        .is_empty());
    let (status, _) = app
        .call(
            "PATCH",
            &format!("/api/missions/{m}"),
            &app.admin,
            Some(json!({"requiresReview": false})),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let p = pr(&app, &m, 97).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 1, "{p}");
}

#[tokio::test]
async fn work_that_reported_its_pr_earlier_is_reviewed_when_it_completes() {
    let app = TestApp::new().await;
    let m = agent_review_mission(&app, json!({})).await;
    let t = app.task(Some(&m), "Change 98").await;
    let worker = app.claim_task(&t).await;
    let (status, body) = app
        .report(
            &worker,
            json!({"status": "running", "prNumber": 98,
            "prUrl": "https://github.com/acme/web/pull/98", "baseBranch": "main",
            "headBranch": "buildd/98", "headSha": SHA, "files": src_files()}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        pr(&app, &m, 98).await["reviews"]
            .as_array()
            .unwrap()
            .is_empty(),
        "not done yet"
    );
    let (status, body) = app
        .report(&worker, json!({"status": "completed", "summary": "done"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let p = pr(&app, &m, 98).await;
    assert_eq!(p["reviews"].as_array().unwrap().len(), 1, "{p}");
}
