//! The mission's pull requests: what holds each, reviews, and a person merging.

use crate::fixtures::api::{
    mission_workspace, new_mission, new_mission_with, new_task, patch, pr_of, task_with_green_pr,
};
use crate::fixtures::check::{any_text, text_from};
use crate::fixtures::{opened, Page};
use buildd_testkit::{Api, TestServer, WorkerVerbs};
use serde_json::{json, Value};

/// The files of a PR that changes `path` and nothing a rail holds.
fn modified(path: &str) -> Value {
    json!([{"path": path, "status": "modified", "additions": 12, "deletions": 3, "patch": "+x"}])
}

/// The element `testid` within PR `number`'s row.
fn pr(number: i64, testid: &str) -> String {
    format!("[data-pr='{number}'] [data-testid={testid}]")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_held_pr_shows_its_contract_reason_and_a_person_merges_it() {
    let server = TestServer::start_demo().await;
    let mission = new_mission_with(
        &server,
        json!({"title": "User cleanup", "requiresReview": true, "orchestrationMode": "manual"}),
    )
    .await;
    task_with_green_pr(
        &server,
        &mission,
        501,
        json!([{"path": "migrations/0007_drop.sql", "status": "added", "additions": 1, "deletions": 0,
                "patch": "+ALTER TABLE users DROP COLUMN legacy;"}]),
    )
    .await;
    task_with_green_pr(&server, &mission, 502, modified("src/users.rs")).await;

    let browser = opened(&server, Page::Mission(&mission)).await;
    let held = any_text(&browser, &pr(501, "pr-reason")).await;
    assert_eq!(
        held,
        "migration: migrations/0007_drop.sql: drops column users.legacy"
    );
    let verdicts = any_text(&browser, &pr(501, "migration-verdicts")).await;
    assert!(verdicts.contains("CONTRACT"), "{verdicts}");
    // What holds it is what a person reviews; they may merge it once CI passed.
    assert_eq!(browser.count(&pr(501, "merge-pr")).await, 1);
    assert_eq!(
        any_text(&browser, &pr(501, "pr-outlook")).await,
        "Blocked because migration: migrations/0007_drop.sql: drops column users.legacy. \
         You can merge past it."
    );
    assert_eq!(
        any_text(&browser, &pr(502, "pr-outlook")).await,
        "Waiting for you to merge (Human — this mission requires review: a person merges this PR)."
    );
    // A person's tier has no size cap: the size is only the lines.
    assert_eq!(any_text(&browser, &pr(502, "pr-size")).await, "+12/−3");
    assert_eq!(
        browser.texts(&pr(502, "pr-check")).await,
        ["✓ test: success"]
    );

    let reason = any_text(&browser, &pr(502, "pr-reason")).await;
    assert_eq!(
        reason,
        "Human — this mission requires review: a person merges this PR"
    );
    // Merging past a rail says so; merging what only the tier holds does not.
    browser.click(&pr(501, "merge-pr")).await;
    let warning = any_text(&browser, &pr(501, "merge-warning")).await;
    assert_eq!(warning, "You merge past what holds it, listed above.");
    browser.click(&pr(502, "merge-pr")).await;
    any_text(&browser, &pr(502, "merge-confirm")).await;
    assert!(browser.absent(&pr(502, "merge-warning")).await);
    browser.click(&pr(502, "confirm-merge")).await;
    // Merged, it folds away with the others that landed.
    browser.wait_for("[data-testid=prs-done]").await;
    browser.click("[data-testid=prs-done] summary").await;
    browser
        .wait_text(&pr(502, "pr-state"), |t| t.eq_ignore_ascii_case("merged"))
        .await;
    assert_eq!(pr_of(&server, &mission, 502).await["state"], "merged");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_escalated_review_shows_why_and_a_person_merges_the_pr() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Reviewed search").await;
    let policy = json!({"mergePolicy": {"tier": "agent-review",
                                        "agentReview": {"reviewerRole": "reviewer"}}});
    let status = patch(&server, &format!("/api/missions/{mission}"), policy).await;
    assert_eq!(status, 200);
    task_with_green_pr(&server, &mission, 601, modified("src/search.rs")).await;
    let browser = opened(&server, Page::Mission(&mission)).await;
    let waiting = any_text(&browser, &pr(601, "pr-review")).await;
    assert!(
        waiting.starts_with("Reviewer at work on review 1"),
        "{waiting}"
    );
    assert!(browser.absent(&pr(601, "merge-pr")).await);

    // The reviewer approves a PR into main: the server sends it to a person instead.
    let reviewer = pr_of(&server, &mission, 601).await["reviews"][0]["reviewerTaskId"]
        .as_str()
        .unwrap()
        .to_string();
    server
        .complete_with_output(
            &reviewer,
            json!({"verdict": "approve", "confidence": 0.9, "summary": "Tests cover the ranking."}),
        )
        .await;
    let review = text_from(&browser, &pr(601, "pr-review"), "Escalated").await;
    assert!(
        review.starts_with("Escalated to you (the reviewer said approve (confidence 0.90))"),
        "{review}"
    );
    assert!(
        review.contains(
            "model approve: base 'main' is a protected trunk branch — human merge required"
        ),
        "{review}"
    );
    assert!(review.contains("Tests cover the ranking."), "{review}");
    browser.click(&pr(601, "merge-pr")).await;
    browser.click(&pr(601, "confirm-merge")).await;
    // Merged, it folds away with the others that landed.
    browser.wait_for("[data-testid=prs-done]").await;
    browser.click("[data-testid=prs-done] summary").await;
    browser
        .wait_text(&pr(601, "pr-state"), |t| t.eq_ignore_ascii_case("merged"))
        .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pr_row_shows_its_checks_its_size_against_the_cap_and_what_merges_it() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Bulk import").await;
    let policy = json!({"mergePolicy": {"tier": "auto-threshold", "threshold": {"maxLines": 800}}});
    let status = patch(&server, &format!("/api/missions/{mission}"), policy).await;
    assert_eq!(status, 200);
    task_with_green_pr(
        &server,
        &mission,
        701,
        json!([{"path": "src/import.rs", "status": "added", "additions": 880, "deletions": 20, "patch": "+x"},
               {"path": "Cargo.lock", "status": "modified", "additions": 30, "deletions": 2, "patch": "+x"}]),
    )
    .await;
    // A PR whose CI has not reported yet.
    let task = new_task(&server, "Change 702", Some(&mission)).await;
    let worker = server.claim_task(&task).await;
    server
        .report_ok(
            &worker,
            json!({"status": "completed", "prNumber": 702, "baseBranch": "main",
                   "headSha": "0ddba11000", "files": modified("src/import_cli.rs")}),
        )
        .await;

    let browser = opened(&server, Page::Mission(&mission)).await;
    assert_eq!(
        any_text(&browser, &pr(701, "pr-size")).await,
        "+910/−22 · 900 of 800 lines, a lock file not counted"
    );
    assert_eq!(
        any_text(&browser, &pr(701, "pr-outlook")).await,
        "Blocked because diff size 900 lines > limit 800 (1 lock files not counted). \
         You can merge past it."
    );
    assert_eq!(
        browser.texts(&pr(701, "pr-check")).await,
        ["✓ test: success"]
    );

    assert_eq!(
        any_text(&browser, &pr(702, "pr-outlook")).await,
        "Waiting for CI (no CI check run reported for head commit 0ddba11); \
         then it merges automatically."
    );
    assert!(browser.absent(&pr(702, "pr-check")).await);
    // CI starts: the row shows the check under way.
    let workspace = mission_workspace(&server).await;
    // A log address that is not a web address is refused, naming the field.
    let build_check = |details_url: &str| {
        let check = json!({"workspaceId": workspace, "headSha": "0ddba11000", "name": "build",
                           "status": "in_progress", "detailsUrl": details_url});
        server.send(
            "POST",
            "/api/prs/702/checks",
            &server.worker_key,
            Some(check),
        )
    };
    let (status, body) = build_check("javascript:alert(1)").await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("detailsUrl"),
        "{body}"
    );
    let (status, body) = build_check("https://ci.example/runs/9").await;
    assert_eq!(status, 201, "{body}");
    browser
        .wait_text(&pr(702, "pr-check"), |t| t == "… build: in progress")
        .await;
    // The check's name opens its log.
    assert_eq!(
        browser
            .attr(&pr(702, "pr-check-link"), "href")
            .await
            .as_deref(),
        Some("https://ci.example/runs/9")
    );
    assert_eq!(
        browser
            .attr(&pr(702, "pr-check-link"), "rel")
            .await
            .as_deref(),
        Some("noopener noreferrer")
    );
    let outlook = any_text(&browser, &pr(702, "pr-outlook")).await;
    assert_eq!(
        outlook,
        "Waiting for CI (CI checks still pending for 0ddba11: build); then it merges automatically."
    );
    browser.close().await;
}
