//! Running work, as a lead controls it: stopping an agent from its task's page, its row on
//! the mission page and the command center; watching its run move; answering an agent that
//! waits; editing what was filed; Start now, Delete and Arm.

use crate::fixtures::api::{new_mission, new_mission_with, new_task};
use crate::fixtures::check::{text_is, text_with, value_len};
use crate::fixtures::{connected, opened, Page};
use buildd_testkit::{TestServer, WorkerVerbs};
use serde_json::json;

fn step(label: &str, ts: i64) -> serde_json::Value {
    json!({"type": "phase", "label": label, "ts": ts})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_moves_on_its_page_and_is_stopped_there_with_a_reason() {
    let server = TestServer::start_demo().await;
    let task = new_task(&server, "Profile the build", None).await;
    let worker = server.claim_task(&task).await;
    let t0 = chrono::Utc::now().timestamp_millis() - 60_000;
    server
        .report_ok(
            &worker,
            json!({"status": "running", "currentAction": "Timing the steps",
                                  "turns": 3, "milestones": [step("Read the logs", t0)]}),
        )
        .await;
    let browser = opened(&server, Page::Task(&task)).await;
    text_is(
        &browser,
        "[data-testid=run-current-action]",
        "Now: Timing the steps",
    )
    .await;
    text_with(&browser, "[data-testid=run-stats]", "Turns").await;
    assert_eq!(browser.count("[data-testid=milestone]").await, 1);
    // A report shows without a reload.
    server
        .report_ok(
            &worker,
            json!({"currentAction": "Writing it up",
                                  "appendMilestones": [step("Found the slow step", t0 + 30_000)]}),
        )
        .await;
    text_with(
        &browser,
        "[data-testid=run-milestones]",
        "Found the slow step",
    )
    .await;
    text_is(
        &browser,
        "[data-testid=run-current-action]",
        "Now: Writing it up",
    )
    .await;
    // The first step lasted until the second.
    text_with(&browser, "[data-testid=milestone]:first-child", "30s").await;

    browser.click("[data-testid=stop-task]").await;
    browser
        .fill("[data-testid=stop-reason]", "It is looping")
        .await;
    browser.click("[data-testid=stop-confirm]").await;
    text_with(&browser, "[data-testid=task-stopped]", "Stopped by").await;
    text_with(&browser, "[data-testid=task-stopped]", "It is looping").await;
    assert!(browser.absent("[data-testid=stop-task]:not(.hidden)").await);
    // Its agent is told on its next report.
    let (status, answer) = server
        .report(&worker, json!({"currentAction": "More"}))
        .await;
    assert_eq!((status.as_u16(), &answer["abort"]), (409, &json!(true)));
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stop_sent_as_the_task_ends_is_refused_in_place() {
    let server = TestServer::start_demo().await;
    let task = new_task(&server, "Tidy the logs", None).await;
    let worker = server.claim_task(&task).await;
    server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    let browser = opened(&server, Page::Task(&task)).await;
    browser.click("[data-testid=stop-task]").await;
    browser
        .fill("[data-testid=stop-reason]", "Not needed")
        .await;
    // The agent finishes while the person confirms.
    server
        .report_ok(&worker, json!({"status": "completed", "summary": "Tidied"}))
        .await;
    text_is(&browser, "[data-testid=task-summary]", "Tidied").await;
    browser.click("[data-testid=stop-confirm]").await;
    text_with(&browser, "[data-testid=stop-error]", "already ended").await;
    // What was typed stays.
    assert_eq!(
        browser.value("[data-testid=stop-reason]").await.as_deref(),
        Some("Not needed")
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_is_stopped_from_its_mission_row_and_from_the_command_center() {
    let server = TestServer::start_demo().await;
    let mission = new_mission_with(
        &server,
        json!({"title": "Faster builds", "orchestrationMode": "manual"}),
    )
    .await;
    let on_row = new_task(&server, "Cache the toolchain", Some(&mission)).await;
    let worker = server.claim_task(&on_row).await;
    server
        .report_ok(
            &worker,
            json!({"status": "running", "currentAction": "Warming the cache"}),
        )
        .await;
    let browser = opened(&server, Page::Mission(&mission)).await;
    let row = format!("[data-task-id=\"{on_row}\"]");
    text_with(
        &browser,
        &format!("{row} [data-testid=task-current-action]"),
        "Warming the cache",
    )
    .await;
    browser
        .click(&format!("{row} [data-testid=stop-task]"))
        .await;
    browser
        .click(&format!("{row} [data-testid=stop-confirm]"))
        .await;
    // The row moves to the folded section of cancelled work.
    text_with(
        &browser,
        "[data-testid=tasks-cancelled] summary",
        "CANCELLED",
    )
    .await;
    browser.click("[data-testid=tasks-cancelled] summary").await;
    text_with(&browser, &row, "cancelled").await;

    let loose = new_task(&server, "Rotate the logs", None).await;
    let worker = server.claim_task(&loose).await;
    server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    browser.click("[data-testid=nav-command]").await;
    let running = &format!("[data-testid=running-task][data-task-id=\"{loose}\"]");
    text_with(&browser, running, "Rotate the logs").await;
    browser
        .click(&format!("{running} [data-testid=stop-task]"))
        .await;
    browser
        .click(&format!("{running} [data-testid=stop-confirm]"))
        .await;
    browser.wait_for_absent(running).await;
    assert_eq!(
        server
            .admin("GET", &format!("/api/tasks/{loose}"), None)
            .await
            .1["status"],
        "cancelled"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_waiting_on_a_question_is_answered_in_place_and_reads_the_answer() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Search speed").await;
    let task = new_task(&server, "Cache the search", Some(&mission)).await;
    let worker = server.claim_task(&task).await;
    let asks = json!({"type": "question", "prompt": "Which cache?",
                      "options": [{"label": "Redis"}, {"label": "None"}]});
    server
        .report_ok(
            &worker,
            json!({"status": "waiting_input", "waitingFor": asks}),
        )
        .await;
    let browser = connected(&server).await;
    browser.click("[data-testid=nav-command]").await;
    let item = text_with(
        &browser,
        "[data-testid=waiting-on-you]",
        "Cache the search asks: Which cache?",
    )
    .await;
    assert!(item.to_lowercase().contains("agent waiting"), "{item}");
    // The tab's count includes it.
    browser
        .wait_answer("return document.title", |t| {
            t.as_str().is_some_and(|t| t.starts_with('('))
        })
        .await;
    browser
        .click(
            "[data-testid=waiting-on-you] [data-testid=answer-agent] [data-testid=answer-option]",
        )
        .await;
    // Answered, the item leaves the list.
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Cache the search asks")
        })
        .await;
    let answer = server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    assert_eq!(answer["instructions"], "Redis");

    // Asked again, and answered in words of one's own on the task's page.
    server
        .report_ok(
            &worker,
            json!({"status": "waiting_input", "waitingFor": asks}),
        )
        .await;
    crate::fixtures::open(&browser, &server, Page::Task(&task)).await;
    browser.wait_for("[data-testid=agent-waiting]").await;
    browser
        .fill(
            "[data-testid=agent-waiting] [data-testid=answer-text]",
            "Redis, with a 5 minute TTL",
        )
        .await;
    browser
        .click("[data-testid=agent-waiting] [data-testid=answer-send]")
        .await;
    browser.wait_for_absent("[data-testid=agent-waiting]").await;
    let answer = server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    assert_eq!(answer["instructions"], "Redis, with a 5 minute TTL");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn what_was_filed_is_edited_started_deleted_and_armed() {
    let server = TestServer::start_demo().await;
    let mission = new_mission_with(
        &server,
        json!({"title": "Migrate orders", "orchestrationMode": "manual", "startMode": "held"}),
    )
    .await;
    let browser = opened(&server, Page::Mission(&mission)).await;
    // A mission's title and priority, in place.
    browser.click("[data-testid=mission-edit]").await;
    browser
        .fill(
            "[data-testid=mission-edit-title]",
            "Migrate the orders table",
        )
        .await;
    browser
        .fill("[data-testid=mission-edit-priority]", "3")
        .await;
    browser.click("[data-testid=mission-edit-save]").await;
    text_is(
        &browser,
        "[data-testid=mission-title]",
        "Migrate the orders table",
    )
    .await;
    // Held until armed.
    browser.click("[data-testid=arm-mission]").await;
    browser.wait_for_absent("[data-testid=mission-held]").await;
    assert_eq!(
        server
            .admin("GET", &format!("/api/missions/{mission}"), None)
            .await
            .1["isHeld"],
        false
    );

    // A pending task: an edit the rules refuse keeps the text and says why.
    let (_, created) = server
        .admin(
            "POST",
            "/api/tasks",
            Some(json!({"title": "Nightly cleanup", "missionId": mission,
                        "workspaceId": crate::fixtures::api::mission_workspace(&server).await,
                        "startAt": "2099-01-01T02:00:00Z"})),
        )
        .await;
    let task = created["id"].as_str().unwrap().to_string();
    crate::fixtures::open(&browser, &server, Page::Task(&task)).await;
    browser.click("[data-testid=task-edit]").await;
    let long = "t".repeat(501);
    browser.fill("[data-testid=task-edit-title]", &long).await;
    browser.click("[data-testid=task-edit-save]").await;
    text_with(
        &browser,
        "[data-testid=task-edit-error-title]",
        "at most 500 characters",
    )
    .await;
    assert_eq!(
        value_len(&browser, "[data-testid=task-edit-title]").await,
        Some(501)
    );
    browser
        .fill(
            "[data-testid=task-edit-title]",
            "Nightly cleanup of old carts",
        )
        .await;
    browser.click("[data-testid=task-edit-save]").await;
    text_is(
        &browser,
        "[data-testid=task-title]",
        "Nightly cleanup of old carts",
    )
    .await;
    // Start now, past its start time.
    text_with(&browser, "[data-testid=task-deferred]", "Starts").await;
    browser.click("[data-testid=task-start-now]").await;
    browser.wait_for_absent("[data-testid=task-deferred]").await;
    assert!(server
        .admin("GET", &format!("/api/tasks/{task}"), None)
        .await
        .1["startAt"]
        .is_null());
    // Delete, after a confirming step.
    browser.click("[data-testid=task-delete]").await;
    browser.click("[data-testid=task-delete-confirm]").await;
    browser
        .wait_answer("return location.pathname", |p| {
            p.as_str() == Some("/activity")
        })
        .await;
    assert_eq!(
        server
            .admin("GET", &format!("/api/tasks/{task}"), None)
            .await
            .0,
        404
    );
    browser.close().await;
}
