//! `GET /api/insights/prs`: the team's PRs with every fact their merge decision reads. The
//! replay of the policies as they stand gives, for each open PR, the reasons the server's
//! own evaluation gives; a proposed policy moves PRs between outcomes; another team's PRs
//! never show, and a bad `weeks` is named.

mod common;

use axum::http::StatusCode;
use buildd_core::insights::what_if::{replay_policy, Proposal, RecordedPrs, Replayed};
use buildd_core::merge_policy::MergePolicy;
use buildd_core::merge_rails::Rail;
use buildd_core::pull_request::Verdict;
use buildd_core::PrStatus;
use common::*;
use serde_json::{json, Value};

const SHA: &str = "abc1234def5678";

fn file(path: &str, additions: i64, patch: &str) -> Value {
    json!({"path": path, "status": "added", "additions": additions, "deletions": 0,
           "patch": patch})
}

async fn with_pr(app: &TestApp, mission: &str, number: i64, files: Value) {
    let t = app.task(Some(mission), &format!("Change {number}")).await;
    let body = json!({"summary": "done", "prNumber": number,
        "prUrl": format!("https://github.com/acme/web/pull/{number}"),
        "baseBranch": "main", "headBranch": format!("buildd/{number}"), "headSha": SHA,
        "files": files});
    let (status, answer) = app.complete_task(&t, body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

async fn recorded(app: &TestApp, key: &str, query: &str) -> RecordedPrs {
    let (status, body) = app
        .call("GET", &format!("/api/insights/prs{query}"), key, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    serde_json::from_value(body).unwrap()
}

#[tokio::test]
async fn the_replay_of_the_policies_as_they_stand_agrees_with_the_server() {
    let app = TestApp::new().await;
    let m = app.mission("Replay").await;
    with_pr(&app, &m, 60, json!([file("src/a.rs", 10, "+fn a() {}")])).await;
    with_pr(&app, &m, 61, json!([file("src/big.rs", 900, "+big")])).await;
    let drop = "+ALTER TABLE users DROP COLUMN legacy;";
    with_pr(
        &app,
        &m,
        62,
        json!([file("migrations/0007_drop.sql", 1, drop)]),
    )
    .await;
    with_pr(&app, &m, 63, json!([file("src/c.rs", 5, "+fn c() {}")])).await;
    for n in 60..=62 {
        app.check_run(n, SHA, "completed", Some("success")).await;
    }

    let answer = recorded(&app, &app.admin, "?weeks=2").await;
    let numbers: Vec<i64> = answer.prs.iter().map(|p| p.number).collect();
    assert_eq!(numbers, [60, 61, 62, 63]);
    let states: Vec<PrStatus> = answer.prs.iter().map(|p| p.state.clone()).collect();
    assert_eq!(
        states,
        [
            PrStatus::Merged,
            PrStatus::Open,
            PrStatus::Open,
            PrStatus::Open
        ]
    );
    // The classifier's verdict is recorded; the patches it read are not sent.
    let migration = answer.prs[2].migrations.as_ref().expect("a verdict");
    assert_eq!(migration.verdict, Verdict::Contract);
    assert!(answer
        .prs
        .iter()
        .all(|p| p.files.iter().all(|f| f.patch.is_none())));
    assert_eq!(answer.prs[0].checks.len(), 1);

    let now = replay_policy(&answer.prs, None, 0);
    let outcomes: Vec<Replayed> = now.prs.iter().map(|p| p.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Replayed::MergedByItself,
            Replayed::WaitedForPerson,
            Replayed::WaitedForPerson,
            Replayed::WaitedForCi
        ]
    );
    for replayed in &now.prs[1..] {
        let server = app.pr_json(&m, replayed.number).await;
        let reasons: Vec<String> =
            serde_json::from_value(server["evaluation"]["reasons"].clone()).unwrap();
        assert_eq!(replayed.reasons, reasons, "PR #{}", replayed.number);
    }
    let rails: Vec<Rail> = now.by_rail.iter().map(|c| c.rail).collect();
    assert_eq!(rails, [Rail::Size, Rail::Migration]);

    // The human tier for the workspace: nothing merges by itself, every PR waits for a
    // person (the one without CI too: the tier holds it whatever CI says).
    let human = Proposal::Workspace {
        workspace_id: app.workspace.clone(),
        policy: Some(MergePolicy {
            tier: "human".into(),
            ..MergePolicy::builtin()
        }),
    };
    let proposed = replay_policy(&answer.prs, Some(&human), 0);
    assert_eq!(proposed.merged_by_itself, 0);
    assert_eq!(proposed.waited_for_person, 4);
}

#[tokio::test]
async fn another_teams_prs_never_show_and_bad_weeks_are_named() {
    let app = TestApp::new().await;
    let m = app.mission("Ours").await;
    with_pr(&app, &m, 70, json!([file("src/a.rs", 1, "+a")])).await;
    assert_eq!(recorded(&app, &app.admin, "").await.prs.len(), 1);
    assert!(recorded(&app, &app.other, "").await.prs.is_empty());

    let (status, body) = app
        .call("GET", "/api/insights/prs?weeks=0", &app.admin, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["field"], "weeks", "{body}");
    let (status, _) = app.call("GET", "/api/insights/prs", NO_KEY, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
