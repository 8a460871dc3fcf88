mod common;

use axum::http::StatusCode;
use buildd_server::db::sql;
use common::*;
use serde_json::{json, Value};

const SHA: &str = "abc1234def5678";

fn files(extra: Value) -> Value {
    let mut list = vec![
        json!({"path": "src/cart.rs", "status": "modified", "additions": 30, "deletions": 4, "patch": "+fn cart() {}"}),
    ];
    if let Value::Array(more) = extra {
        list.extend(more);
    }
    Value::Array(list)
}

/// A task of `mission` completed by a worker with PR `number`; returns the task id.
async fn with_pr(app: &TestApp, mission: &str, number: i64, files: Option<Value>) -> String {
    let t = app.task(Some(mission), &format!("Change {number}")).await;
    let mut body = json!({"summary": "done", "prNumber": number,
        "prUrl": format!("https://github.com/acme/web/pull/{number}"),
        "baseBranch": "main", "headBranch": format!("buildd/{number}"), "headSha": SHA});
    if let Some(f) = files {
        body["files"] = f;
    }
    let (status, answer) = app.complete_task(&t, body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    t
}

async fn pr(app: &TestApp, mission: &str, number: i64) -> Value {
    app.pr_json(mission, number).await
}

async fn check(
    app: &TestApp,
    number: i64,
    sha: &str,
    status: &str,
    conclusion: Option<&str>,
) -> (StatusCode, Value) {
    app.check_run(number, sha, status, conclusion).await
}

fn reasons(pr: &Value) -> Vec<String> {
    pr["evaluation"]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_green_pr_for_its_head_commit_merges_by_itself() {
    let app = TestApp::new().await;
    let m = app.mission("Cart").await;
    let task = with_pr(&app, &m, 41, Some(files(json!([])))).await;
    let p = pr(&app, &m, 41).await;
    assert_eq!(p["evaluation"]["state"], "ci_pending");
    assert_eq!(
        reasons(&p),
        ["no CI check run reported for head commit abc1234"]
    );
    assert_eq!(p["files"][0]["path"], "src/cart.rs");
    assert!(p["files"][0].get("patch").is_none_or(Value::is_null));

    check(&app, 41, SHA, "in_progress", None).await;
    assert_eq!(
        reasons(&pr(&app, &m, 41).await),
        ["CI checks still pending for abc1234: test"]
    );
    let (status, p) = check(&app, 41, SHA, "completed", Some("failure")).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    assert_eq!(p["evaluation"]["state"], "ci_failing");
    // Nobody merges a head commit whose CI failed.
    let (status, refused) = app.merge_pr(41, &app.admin).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        refused["error"],
        "Merge refused: CI checks failed for abc1234: test"
    );
    // A pass for another commit is not a pass for the head.
    let (_, p) = check(&app, 41, "0000000other", "completed", Some("success")).await;
    assert_eq!(p["evaluation"]["state"], "ci_failing");
    let (_, p) = check(&app, 41, SHA, "completed", Some("success")).await;
    assert_eq!(p["state"], "merged", "{p}");
    assert_eq!(p["evaluation"]["state"], "merged");

    let (_, t) = app
        .call("GET", &format!("/api/tasks/{task}"), &app.admin, None)
        .await;
    assert!(t["mergedAt"].is_string(), "{t}");
    let mut tx = app.db.read().await.unwrap();
    let (releases,): (i64,) =
        sql::query_as("SELECT COUNT(*) FROM release_events WHERE merge_method = 'squash'")
            .fetch_one(&mut tx)
            .await
            .unwrap();
    assert_eq!(releases, 1);
    drop(tx);
    let (_, mission) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(mission["status"], "completed", "its only task merged");
}

#[tokio::test]
async fn every_rail_that_blocks_says_why() {
    let app = TestApp::new().await;
    let m = app.mission("Rails").await;
    with_pr(&app, &m, 50, None).await;
    with_pr(&app, &m, 51, Some(json!([{"path": 7}]))).await;
    with_pr(
        &app,
        &m,
        52,
        Some(json!([{"path": "src/big.rs", "status": "added", "additions": 900, "deletions": 0}])),
    )
    .await;
    with_pr(&app, &m, 53, Some(files(json!([{"path": "migrations/0007_drop.sql", "status": "added", "additions": 1, "deletions": 0,
        "patch": "+ALTER TABLE users DROP COLUMN legacy;"}])))).await;
    for n in 50..=53 {
        check(&app, n, SHA, "completed", Some("success")).await;
    }
    assert_eq!(
        reasons(&pr(&app, &m, 50).await),
        ["the PR's file listing could not be fetched"]
    );
    assert_eq!(
        reasons(&pr(&app, &m, 51).await),
        ["the PR's file listing is malformed"]
    );
    assert_eq!(
        reasons(&pr(&app, &m, 52).await),
        ["diff size 900 lines > limit 800 (0 lock files not counted)"]
    );
    let migration = pr(&app, &m, 53).await;
    assert_eq!(
        reasons(&migration),
        ["migration: migrations/0007_drop.sql: drops column users.legacy"]
    );
    assert_eq!(
        migration["evaluation"]["migrations"]["files"][0]["statements"][0]["verdict"],
        "CONTRACT"
    );
    assert_eq!(migration["evaluation"]["state"], "held");

    // What the rails hold is what a person reviews: once CI passed, they may merge it.
    let (status, merged) = app.merge_pr(52, &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{merged}");
    assert_eq!(merged["state"], "merged");

    // Deny paths come from the policy; the workspace default applies.
    let (status, _) = app
        .call("PATCH", &format!("/api/workspaces/{}", app.workspace), &app.admin,
              Some(json!({"gitConfig": {"mergePolicy": {"tier": "auto-threshold", "threshold": {"denyPaths": ["infra/"]}}}})))
        .await;
    assert_eq!(status, StatusCode::OK);
    with_pr(&app, &m, 54, Some(files(json!([{"path": "infra/prod.tf", "status": "modified", "additions": 2, "deletions": 1}])))).await;
    check(&app, 54, SHA, "completed", Some("success")).await;
    assert_eq!(
        reasons(&pr(&app, &m, 54).await),
        ["touches protected path infra/prod.tf (matched infra/)"]
    );
}

#[tokio::test]
async fn requires_review_holds_the_pr_for_a_person() {
    let app = TestApp::new().await;
    let m = app
        .mission_with(
            json!({"title": "Auth", "requiresReview": true, "orchestrationMode": "manual"}),
        )
        .await;
    with_pr(&app, &m, 60, Some(files(json!([])))).await;
    let (_, p) = check(&app, 60, SHA, "completed", Some("success")).await;
    assert_eq!(p["state"], "open");
    assert_eq!(p["evaluation"]["state"], "held");
    assert_eq!(
        reasons(&p),
        ["Human — this mission requires review: a person merges this PR"]
    );
    assert_eq!(p["evaluation"]["mergeableByPerson"], true);

    let body = Some(json!({"workspaceId": app.workspace}));
    let (status, _) = app
        .call("POST", "/api/prs/60/merge", &app.worker, body.clone())
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "an agent cannot merge a human-tier PR"
    );
    let (status, merged) = app
        .call("POST", "/api/prs/60/merge", &app.admin, body.clone())
        .await;
    assert_eq!(status, StatusCode::OK, "{merged}");
    assert_eq!(merged["state"], "merged");
    let (status, again) = app
        .call("POST", "/api/prs/60/merge", &app.admin, body)
        .await;
    assert_eq!(
        (status, again["error"].as_str()),
        (StatusCode::CONFLICT, Some("Pull request is already merged"))
    );
    // Its work is done; it requires review, so it waits for Close mission.
    let (_, mission) = app
        .call("GET", &format!("/api/missions/{m}"), &app.admin, None)
        .await;
    assert_eq!(mission["status"], "active");
}

#[tokio::test]
async fn agent_review_and_auto_merge_off_do_not_merge_by_themselves() {
    let app = TestApp::new().await;
    let m = app.mission("Reviewed").await;
    app.call("PATCH", &format!("/api/missions/{m}"), &app.admin,
             Some(json!({"mergePolicy": {"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}}}))).await;
    with_pr(&app, &m, 70, Some(files(json!([])))).await;
    let (_, p) = check(&app, 70, SHA, "completed", Some("success")).await;
    assert_eq!(p["state"], "open");
    let (status, refused) = app.merge_pr(70, &app.admin).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(refused["error"]
        .as_str()
        .unwrap()
        .contains("waiting for the reviewer's verdict"));

    let other = app.mission("Plain").await;
    app.call(
        "PATCH",
        &format!("/api/workspaces/{}", app.workspace),
        &app.admin,
        Some(json!({"gitConfig": {"autoMergeOnGreenCI": false}})),
    )
    .await;
    with_pr(&app, &other, 71, Some(files(json!([])))).await;
    let (_, p) = check(&app, 71, SHA, "completed", Some("success")).await;
    assert_eq!(p["state"], "open");
    assert_eq!(
        reasons(&p),
        ["auto-merge on green CI is off for this workspace: a person merges this PR"]
    );
}

#[tokio::test]
async fn check_runs_are_validated_and_scoped() {
    let app = TestApp::new().await;
    let m = app.mission("M").await;
    with_pr(&app, &m, 80, Some(files(json!([])))).await;
    let post = |key: String, body: Value| {
        let app = &app;
        async move {
            app.call("POST", "/api/prs/80/checks", &key, Some(body))
                .await
        }
    };
    let ws = app.workspace.clone();
    for (body, error) in [
        (
            json!({"headSha": SHA, "name": "t", "status": "completed", "conclusion": "success"}),
            "workspaceId is required",
        ),
        (
            json!({"workspaceId": ws, "name": "t", "status": "completed"}),
            "headSha is required",
        ),
        (
            json!({"workspaceId": ws, "headSha": SHA, "name": "t", "status": "done"}),
            "status must be one of: queued, in_progress, completed",
        ),
        (
            json!({"workspaceId": ws, "headSha": SHA, "name": "t", "status": "completed"}),
            "conclusion is required when status is completed",
        ),
        (
            json!({"workspaceId": ws, "headSha": SHA, "name": "t", "status": "completed", "conclusion": "great"}),
            "conclusion must be one of: success, failure, neutral, cancelled, timed_out",
        ),
    ] {
        let (status, answer) = post(app.worker.clone(), body).await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (StatusCode::BAD_REQUEST, Some(error))
        );
    }
    let ok = json!({"workspaceId": ws, "headSha": SHA, "name": "t", "status": "queued"});
    let (status, _) = post(app.trigger.clone(), ok.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post(app.other.clone(), ok.clone()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app
        .call("POST", "/api/prs/999/checks", &app.worker, Some(ok))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, other_list) = app.call("GET", "/api/prs", &app.other, None).await;
    assert_eq!(other_list["prs"], json!([]));
}

#[tokio::test]
async fn an_agent_may_ask_for_a_merge_only_under_auto_threshold() {
    let app = TestApp::new().await;
    let m = app.mission("Agent merges").await;
    with_pr(&app, &m, 95, Some(files(json!([])))).await;
    // Auto-threshold: the same rails as merging by itself.
    let (status, refused) = app.merge_pr(95, &app.worker).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["error"],
        "Merge refused: no CI check run reported for head commit abc1234"
    );
    let (status, _) = app.merge_pr(95, &app.trigger).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    app.call(
        "PATCH",
        &format!("/api/missions/{m}"),
        &app.admin,
        Some(json!({"mergePolicy": {"tier": "human"}})),
    )
    .await;
    check(&app, 95, SHA, "completed", Some("success")).await;
    let (status, refused) = app.merge_pr(95, &app.worker).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        refused["error"],
        "merge is gated by the merge policy tier: human PRs are merged by a person"
    );
    let (status, merged) = app.merge_pr(95, &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{merged}");
    assert_eq!(
        (&merged["ok"], &merged["merged"], &merged["state"]),
        (&json!(true), &json!(true), &json!("merged"))
    );
}
