//! The missions list: its workspace filter.

use crate::fixtures::api::{new_mission_with, new_workspace};
use crate::fixtures::check::text_is;
use crate::fixtures::connected;
use buildd_testkit::TestServer;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_workspace_filter_lives_in_the_url() {
    let server = TestServer::start_demo().await;
    let ws = new_workspace(&server, "billing", "acme/billing").await;
    new_mission_with(
        &server,
        json!({"title": "Invoice exports", "workspaceId": ws}),
    )
    .await;

    let browser = connected(&server).await;
    let c = &browser.client;
    assert_eq!(browser.count("[data-testid=mission-card]").await, 7);

    let select = c
        .find(Locator::Css("[data-testid=workspace-filter]"))
        .await
        .unwrap();
    select.select_by_value(&ws).await.unwrap();
    text_is(&browser, "[data-testid=active-count]", "1 active").await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.query(), Some(format!("workspace={ws}").as_str()));
    let shown = browser.texts("[data-testid=mission-card]").await;
    assert_eq!(shown.len(), 1);
    assert!(shown[0].contains("Invoice exports"));

    // The filter is part of the address: a reload keeps it.
    c.refresh().await.unwrap();
    text_is(&browser, "[data-testid=active-count]", "1 active").await;
    assert_eq!(browser.count("[data-testid=mission-card]").await, 1);
    browser.close().await;
}
