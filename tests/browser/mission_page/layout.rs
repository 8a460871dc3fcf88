//! The mission page's layout: the work first (open tasks, then PRs), finished work folded
//! under its count, and the organizer's and merging settings on their own tab.

use crate::fixtures::api::mission_id;
use crate::fixtures::check::any_text;
use crate::fixtures::{opened, Page};
use buildd_testkit::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_work_comes_first_finished_work_folds_and_settings_have_their_tab() {
    let server = TestServer::start_demo().await;
    let id = mission_id(&server, "Checkout redesign").await;
    let browser = opened(&server, Page::Mission(&id)).await;
    browser.wait_for("[data-testid=task-list]").await;
    browser.wait_for("[data-testid=pr-list]").await;
    let order = browser
        .run(
            "const top = s => document.querySelector(s).getBoundingClientRect().top;
             return [top('[data-testid=task-list]') < top('[data-testid=pr-list]'),
                     !!document.querySelector('[data-testid=organizer]')];",
        )
        .await;
    assert_eq!(
        order,
        json!([true, false]),
        "tasks before PRs; settings elsewhere"
    );
    // Finished tasks fold under their count, closed until asked.
    let done = "[data-testid=tasks-done]";
    assert_eq!(browser.attr(done, "open").await, None);
    let summary = any_text(&browser, &format!("{done} summary")).await;
    assert!(summary.to_lowercase().starts_with("done"), "{summary}");
    // Opened, its organizer run is told by its number, not the title every run shares.
    browser.click(&format!("{done} summary")).await;
    let rows = browser
        .texts(&format!("{done} [data-testid=task-row] .task-row__title"))
        .await;
    assert!(rows.iter().any(|r| r == "Organizer run 1"), "{rows:?}");
    assert!(!rows.iter().any(|r| r.starts_with("Mission: ")), "{rows:?}");
    // The settings tab is in the address, so a reload keeps it.
    browser.click("[data-testid=tab-settings]").await;
    browser.wait_for("[data-testid=organizer]").await;
    // A run whose start was not recorded reads once as an organizer run.
    let timeline = any_text(&browser, "[data-testid=runs-timeline]").await;
    assert!(timeline.contains("Organizer run · completed"), "{timeline}");
    assert!(!timeline.contains("organizer run ·"), "{timeline}");
    let url = browser.client.current_url().await.unwrap();
    assert_eq!(url.query(), Some("tab=settings"));
    browser.client.refresh().await.unwrap();
    browser.wait_for("[data-testid=merge-policy]").await;
    assert!(browser.absent("[data-testid=task-list]").await);
    browser.close().await;
}
