//! The page refreshes by itself, and only what changed moves.

use crate::fixtures::api::{id_of, mission, mission_id, patch, row};
use crate::fixtures::check::text_is;
use crate::fixtures::{opened, Page};
use buildd_testkit::TestServer;
use serde_json::json;

const WATCH_FOR_LOADING: &str = r#"
window.__sawLoading = false;
new MutationObserver(() => {
  if (document.querySelector('[data-testid=loading]')) window.__sawLoading = true;
}).observe(document.body, {childList: true, subtree: true});
window.__card = document.querySelector('[data-testid=progress-card]');
"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_mission_page_refreshes_by_itself_without_flicker() {
    let server = TestServer::start_demo().await;
    let id = mission_id(&server, "Checkout redesign").await;
    let browser = opened(&server, Page::Mission(&id)).await;
    text_is(&browser, "[data-testid=progress-percent]", "25%").await;
    browser.run(WATCH_FOR_LOADING).await;

    // Past one refresh with nothing changed: no loading state, the same elements on screen.
    tokio::time::sleep(std::time::Duration::from_millis(6_500)).await;
    let calm = browser
        .run("return [window.__sawLoading, window.__card.isConnected]")
        .await;
    assert_eq!(
        calm,
        json!([false, true]),
        "a refresh with no change re-rendered"
    );

    // A change on the server shows up without a reload: the queued task is cancelled, so
    // 1 of 3 deliverables is done.
    let tasks = &mission(&server, &id).await["tasks"];
    let queued = id_of(&row(tasks, |t| t["title"] == "Wire analytics events"));
    let cancel = json!({"status": "cancelled"});
    assert_eq!(
        patch(&server, &format!("/api/tasks/{queued}"), cancel).await,
        200
    );
    text_is(&browser, "[data-testid=progress-percent]", "33%").await;
    let saw_loading = browser.run("return window.__sawLoading").await;
    assert_eq!(
        saw_loading,
        json!(false),
        "the update did not flash a loading state"
    );
    browser.close().await;
}
