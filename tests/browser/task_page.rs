//! A task's page: messaging its agent, where its run is, why it failed and running it again,
//! and what merges its PR.

use crate::fixtures::api::{id_of, mission, mission_id, new_mission, new_task, organizer_run, row};
use crate::fixtures::check::{text_from, text_is, text_with, value_len};
use crate::fixtures::{opened, Page};
use buildd_server::db::sql;
use buildd_testkit::{TestServer, WorkerVerbs};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_running_agent_is_messaged_from_its_task_page() {
    const ERROR: &str = "[data-testid=agent-message-error]";
    const INPUT: &str = "[data-testid=agent-message-input]";
    const SEND: &str = "[data-testid=agent-message-send]";
    const HISTORY: &str = "[data-testid=agent-message]";
    let server = TestServer::start_demo().await;
    let task = new_task(&server, "Tidy the cart", None).await;
    let worker = server.claim_task(&task).await;
    server
        .report_ok(&worker, json!({"status": "running"}))
        .await;

    let browser = opened(&server, Page::Task(&task)).await;
    browser.wait_for("[data-testid=message-agent]").await;

    // Nothing to send is refused in place.
    browser.click(SEND).await;
    text_is(&browser, ERROR, "Write a message first.").await;

    // A message the server refuses stays in the box, with the server's reason.
    let too_long = "x".repeat(4001);
    browser.fill(INPUT, &too_long).await;
    browser.click(SEND).await;
    text_is(&browser, ERROR, "message must be at most 4000 characters").await;
    let kept = value_len(&browser, INPUT).await;
    assert_eq!(kept, Some(4001));

    // A message that goes through joins the history, delivered with the next report.
    browser.fill(INPUT, "").await;
    browser
        .type_into(INPUT, "Keep the old cart API working")
        .await;
    browser.click(SEND).await;
    let entry = text_with(&browser, HISTORY, "Keep the old cart API working").await;
    assert!(
        entry.contains("waiting for the agent's next update"),
        "{entry}"
    );
    assert_eq!(browser.value(INPUT).await.as_deref(), Some(""));
    let answer = server
        .report_ok(&worker, json!({"currentAction": "Editing cart.rs"}))
        .await;
    assert_eq!(answer["instructions"], "Keep the old cart API working");
    text_with(&browser, HISTORY, "delivered").await;

    // Once the agent has finished, the history stays and the box goes.
    server
        .report_ok(&worker, json!({"status": "completed", "summary": "Tidied"}))
        .await;
    text_is(&browser, "[data-testid=task-summary]", "Tidied").await;
    assert!(browser.absent(INPUT).await);
    browser.wait_for(HISTORY).await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_planning_run_shows_where_it_is_and_why_it_failed() {
    const BANNER: &str = "[data-testid=plan-banner]";
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Audit logs").await;
    let planning = organizer_run(&server, &mission).await;
    let browser = opened(&server, Page::Task(&planning)).await;
    text_from(&browser, BANNER, "Waiting for a worker").await;
    let worker = server.claim_task(&planning).await;
    server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    text_is(&browser, BANNER, "Agent is generating a plan…").await;
    // The run in a line: its state and branch.
    let run = text_from(&browser, "[data-testid=task-run]", "Attempt 1: running").await;
    assert!(run.contains("· branch "), "{run}");
    server
        .report_ok(
            &worker,
            json!({"status": "completed", "summary": "Here is my plan in prose."}),
        )
        .await;
    let why = "the plan was not returned as validated JSON, so no child tasks could be created";
    let banner = format!("Planning failed: {why}");
    text_is(&browser, BANNER, &banner).await;
    // The result says why, beside what the agent wrote.
    let error = format!("Failed: {why}");
    text_is(&browser, "[data-testid=task-error]", &error).await;
    text_is(
        &browser,
        "[data-testid=task-summary]",
        "Here is my plan in prose.",
    )
    .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_task_says_why_and_runs_again_with_what_it_blocked() {
    let server = TestServer::start_demo().await;
    let id = mission_id(&server, "Stabilise flaky CI").await;
    // The demo's failed task.
    let failed = id_of(&row(&mission(&server, &id).await["tasks"], |t| {
        t["status"] == "failed" && t["title"] == "Fix race in inventory test"
    }));
    let browser = opened(&server, Page::Task(&failed)).await;
    let why = text_from(&browser, "[data-testid=task-error]", "Failed: ").await;
    browser.click("[data-testid=retry-task]").await;
    browser
        .wait_text("[data-testid=task-last-error]", |t| {
            t == format!(
                "The last run failed: {}",
                why.trim_start_matches("Failed: ")
            )
        })
        .await;
    let task = server.get(&format!("/api/tasks/{failed}")).await;
    assert_eq!(task["status"], "pending");
    assert!(browser.absent("[data-testid=retry-task]").await);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_that_went_quiet_is_flagged_and_a_failure_shows_in_full_with_its_attempts() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Search index").await;
    let task = new_task(&server, "Rebuild the index", Some(&mission)).await;
    let worker = server.claim_task(&task).await;
    server
        .report_ok(
            &worker,
            json!({"status": "running", "currentAction": "Reindexing"}),
        )
        .await;
    // Its runner started 57 minutes ago and last reported 40 minutes ago.
    let ago = |m: i64| {
        (chrono::Utc::now() - chrono::Duration::minutes(m))
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    };
    let mut tx = server.db.write().await.unwrap();
    sql::query("UPDATE workers SET started_at = ?, updated_at = ? WHERE id = ?")
        .bind(ago(57))
        .bind(ago(40))
        .bind(&worker)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let browser = opened(&server, Page::Task(&task)).await;
    let run = text_from(&browser, "[data-testid=task-run]", "Attempt 1: running").await;
    assert!(run.contains("Reindexing"), "{run}");
    assert!(run.contains("running for 57m"), "{run}");
    assert!(run.contains("last report 40m ago"), "{run}");
    text_from(
        &browser,
        "[data-testid=run-quiet]",
        "Its runner has not reported for 40m",
    )
    .await;

    // It fails with a long error: shown in full, not cut to a line.
    let error = format!(
        "Index build failed: {}",
        "segment merge conflict; ".repeat(20)
    );
    server
        .report_ok(&worker, json!({"status": "failed", "error": error}))
        .await;
    let shown = text_from(
        &browser,
        "[data-testid=run-error] pre",
        "Index build failed",
    )
    .await;
    assert_eq!(shown.trim_end(), error.trim_end());
    assert!(browser.absent("[data-testid=run-quiet]").await);

    // Run again: the second attempt, with the first listed.
    browser.click("[data-testid=retry-task]").await;
    text_is(&browser, "[data-testid=task-state]", "pending").await;
    let again = server.claim_task(&task).await;
    server.report_ok(&again, json!({"status": "running"})).await;
    text_from(
        &browser,
        "[data-testid=task-run]",
        "Attempt 2 of 2: running",
    )
    .await;
    let earlier = text_from(
        &browser,
        "[data-testid=earlier-runs] summary",
        "Earlier attempts",
    )
    .await;
    assert_eq!(earlier, "Earlier attempts (1)");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_page_says_what_merges_its_pr_with_the_checks() {
    let server = TestServer::start_demo().await;
    let mission = mission_id(&server, "Checkout redesign").await;
    let prs = server.get(&format!("/api/prs?missionId={mission}")).await;
    let open = row(&prs["prs"], |p| p["state"] == "open");
    let task = open["taskId"].as_str().expect("the PR's task").to_string();
    let browser = opened(&server, Page::Task(&task)).await;
    let status = "[data-testid=task-pr-status]";
    text_is(
        &browser,
        &format!("{status} [data-testid=pr-outlook]"),
        "Blocked because touches protected path src/payments/form.rs (matched src/payments/). \
         You can merge past it.",
    )
    .await;
    assert_eq!(
        browser
            .texts(&format!("{status} [data-testid=pr-check]"))
            .await,
        ["✓ build: success"]
    );
    assert_eq!(
        browser
            .texts(&format!("{status} [data-testid=pr-size]"))
            .await,
        ["+40/−4 · 44 of 800 lines"]
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn each_attempt_shows_its_cost_and_tokens_and_the_task_its_total() {
    let server = TestServer::start_demo().await;
    let task = new_task(&server, "Port the search index", None).await;
    // The first attempt reports what it used, then fails; the task is run again.
    let first = server.claim_task(&task).await;
    server
        .report_ok(
            &first,
            json!({"costUsd": 0.5, "inputTokens": 1000, "outputTokens": 200}),
        )
        .await;
    server
        .report_ok(&first, json!({"status": "failed", "error": "tests failed"}))
        .await;
    let requeued = crate::fixtures::api::patch(
        &server,
        &format!("/api/tasks/{task}"),
        json!({"status": "pending"}),
    )
    .await;
    assert_eq!(requeued, 200);
    let second = server.claim_task(&task).await;
    server
        .report_ok(
            &second,
            json!({"status": "completed", "summary": "Ported", "costUsd": 0.9,
                   "inputTokens": 3000, "outputTokens": 12400}),
        )
        .await;

    let browser = opened(&server, Page::Task(&task)).await;
    text_is(
        &browser,
        "[data-testid=task-cost-total]",
        "Total $1.40 · 4,000 in · 12,600 out",
    )
    .await;
    // Newest first, a cell each: the attempt, its status, cost and tokens.
    let cells = browser.texts("[data-testid=attempt-cost] > *").await;
    assert_eq!(
        cells,
        [
            "Attempt 2",
            "completed",
            "$0.90",
            "3,000 in · 12,400 out",
            "Attempt 1",
            "failed",
            "$0.50",
            "1,000 in · 200 out"
        ]
    );
    browser.close().await;
}
