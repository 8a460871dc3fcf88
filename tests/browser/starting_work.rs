//! Starting work from the dashboard: a new mission, a task filed on it, and the status
//! changes a person makes.

use crate::fixtures::api::{mission, mission_id};
use crate::fixtures::check::{any_text, text_is, text_with};
use crate::fixtures::{connected, open, Page};
use buildd_testkit::TestServer;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_is_created_from_the_list_and_a_task_filed_on_it() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    browser.click("[data-testid=open-new-mission]").await;
    // Nothing is sent without a title, and the field says why.
    browser.click("[data-testid=create-mission]").await;
    text_is(
        &browser,
        "[data-testid=new-mission-title-error]",
        "Give the mission a title.",
    )
    .await;
    browser
        .type_into("[data-testid=new-mission-title]", "Rate limits")
        .await;
    assert!(
        browser
            .absent("[data-testid=new-mission-title-error]")
            .await
    );
    browser
        .type_into(
            "[data-testid=new-mission-description]",
            "Every public endpoint answers 429 past its limit.",
        )
        .await;
    browser.click("[data-testid=new-mission-manual]").await;
    // Check-ins are an auto mission's choice.
    let hidden = browser
        .run("return document.querySelector('[data-testid=new-mission-check-ins]').offsetParent === null")
        .await;
    assert_eq!(hidden, Value::Bool(true));
    browser
        .click("[data-testid=new-mission-requires-review]")
        .await;
    browser.click("[data-testid=create-mission]").await;

    // Created, it opens.
    text_is(&browser, "[data-testid=mission-title]", "Rate limits").await;
    let id = mission_id(&server, "Rate limits").await;
    assert_eq!(browser.path().await, format!("/missions/{id}"));
    let created = mission(&server, &id).await;
    assert_eq!(created["orchestrationMode"], "manual");
    assert_eq!(created["requiresReview"], true);
    assert_eq!(
        created["description"],
        "Every public endpoint answers 429 past its limit."
    );
    assert!(created["workspaceId"].is_string(), "{created}");

    // A task filed on it lands in its list.
    browser.click("[data-testid=open-new-task]").await;
    browser.click("[data-testid=create-task]").await;
    text_is(
        &browser,
        "[data-testid=new-task-title-error]",
        "Give the task a title.",
    )
    .await;
    browser
        .type_into("[data-testid=new-task-title]", "Add the limiter")
        .await;
    browser.click("[data-testid=create-task]").await;
    text_with(&browser, "[data-testid=task-created]", "Add the limiter").await;
    text_with(&browser, "[data-testid=task-list]", "Add the limiter").await;
    let tasks = mission(&server, &id).await["tasks"].clone();
    let filed = tasks
        .as_array()
        .expect("tasks")
        .iter()
        .find(|t| t["title"] == "Add the limiter")
        .cloned()
        .expect("the filed task");
    assert_eq!(filed["status"], "pending");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_is_archived_restored_and_set_to_wait_for_a_person() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    let id = mission_id(&server, "Add a health endpoint").await;
    open(&browser, &server, Page::MissionSettings(&id)).await;
    text_is(
        &browser,
        "[data-testid=mission-status-now]",
        "Status: active",
    )
    .await;
    // An active mission offers Archive only: Reopen and Restore are for other states.
    assert!(browser.absent("[data-testid=reopen-mission]").await);
    assert!(browser.absent("[data-testid=restore-mission]").await);

    browser.click("[data-testid=requires-review]").await;
    browser
        .wait_text("[data-testid=effective-policy]", |t| {
            t.contains("requires review")
        })
        .await;
    assert_eq!(mission(&server, &id).await["requiresReview"], true);

    browser.click("[data-testid=archive-mission]").await;
    text_is(
        &browser,
        "[data-testid=mission-status-now]",
        "Status: archived",
    )
    .await;
    assert_eq!(mission(&server, &id).await["status"], "archived");
    assert!(browser.absent("[data-testid=archive-mission]").await);
    browser.click("[data-testid=restore-mission]").await;
    text_is(
        &browser,
        "[data-testid=mission-status-now]",
        "Status: active",
    )
    .await;
    assert_eq!(mission(&server, &id).await["status"], "active");
    let status = any_text(&browser, "[data-testid=mission-status-now]").await;
    assert_eq!(status, "Status: active");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_is_created_with_a_budget_checked_before_it_is_sent() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    browser.click("[data-testid=open-new-mission]").await;
    browser
        .type_into("[data-testid=new-mission-title]", "Cost cap")
        .await;
    // Not an amount: said beside the field, nothing created.
    browser
        .fill("[data-testid=new-mission-budget]", "ten dollars")
        .await;
    browser.click("[data-testid=create-mission]").await;
    text_with(
        &browser,
        "[data-testid=new-mission-budget-error]",
        "is not an amount in dollars",
    )
    .await;
    assert_eq!(browser.path().await, "/missions");
    browser
        .fill("[data-testid=new-mission-budget]", "12.50")
        .await;
    browser.click("[data-testid=create-mission]").await;

    text_is(&browser, "[data-testid=mission-title]", "Cost cap").await;
    let id = mission_id(&server, "Cost cap").await;
    assert_eq!(mission(&server, &id).await["costBudgetUsd"], "12.50");
    text_is(
        &browser,
        "[data-testid=budget-card] [data-testid=budget-text]",
        "$0.00 of $12.50 spent",
    )
    .await;
    // Its card on the list says the same.
    browser.click("[data-testid=nav-missions]").await;
    let card = format!("[data-testid=mission-card][data-mission-id=\"{id}\"]");
    text_is(
        &browser,
        &format!("{card} [data-testid=mission-spend]"),
        "$0.00 of $12.50 spent",
    )
    .await;
    browser.close().await;
}
