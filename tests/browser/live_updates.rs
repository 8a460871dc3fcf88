//! Changes pushed to an open page: on this server the page opens the change stream, reads
//! nothing while nothing changes, and shows a change made elsewhere without polling for it.
//! (Against Buildd, which has no stream, the pages poll: `on_buildd`.)

use crate::fixtures::api::{mission_id, patch};
use crate::fixtures::{connected, opened, Page};
use buildd_testkit::{Browser, TestServer};
use serde_json::json;
use std::time::Duration;

/// The API requests (other than the stream itself) the page has made since the last call.
async fn api_reads(browser: &Browser) -> Vec<String> {
    let paths = browser
        .run(
            "const paths = performance.getEntriesByType('resource')
               .map(e => new URL(e.name).pathname)
               .filter(p => p.startsWith('/api/') && p !== '/api/events');
             performance.clearResourceTimings();
             return paths;",
        )
        .await;
    serde_json::from_value(paths).expect("paths")
}

#[tokio::test(flavor = "multi_thread")]
async fn an_open_page_reads_nothing_until_a_change_and_then_shows_it() {
    let server = TestServer::start_demo().await;
    let id = mission_id(&server, "Add a health endpoint").await;
    let browser = opened(&server, Page::Mission(&id)).await;
    browser
        .wait_for("[data-testid=server][data-live=true]")
        .await;
    let title = browser
        .attr("[data-testid=server]", "title")
        .await
        .unwrap_or_default();
    assert!(title.contains("as they happen"), "{title}");

    // The reads the stream's first event brings are done well within this.
    tokio::time::sleep(Duration::from_secs(2)).await;
    api_reads(&browser).await;
    // Longer than two polling ticks: a polling page would have read by now.
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert_eq!(
        api_reads(&browser).await,
        Vec::<String>::new(),
        "an idle page reads nothing"
    );

    let status = patch(
        &server,
        &format!("/api/missions/{id}"),
        json!({"title": "Renamed from another tab"}),
    )
    .await;
    assert!(status.is_success(), "{status}");
    browser
        .wait_text("[data-testid=mission-title]", |t| {
            t.contains("Renamed from another tab")
        })
        .await;
    let reads = api_reads(&browser).await;
    assert!(
        reads.iter().any(|p| p == &format!("/api/missions/{id}")),
        "the change was read: {reads:?}"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hidden_tab_closes_its_stream_and_opens_it_again_when_shown() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    browser
        .wait_for("[data-testid=server][data-live=true]")
        .await;
    // What the header said while this tab was away.
    browser
        .run(
            "window.liveLog = [];
             const server = document.querySelector('[data-testid=server]');
             new MutationObserver(() => window.liveLog.push(
                 document.visibilityState + ':' + server.dataset.live))
               .observe(server, {attributes: true, attributeFilter: ['data-live']});
             return null;",
        )
        .await;
    let first = browser.client.window().await.unwrap();
    let other = browser.client.new_window(true).await.unwrap();
    browser.client.switch_to_window(other.handle).await.unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    browser.client.close_window().await.unwrap();
    browser.client.switch_to_window(first).await.unwrap();
    browser
        .wait_for("[data-testid=server][data-live=true]")
        .await;
    let log: Vec<String> =
        serde_json::from_value(browser.run("return window.liveLog;").await).unwrap();
    assert_eq!(
        log.first().map(String::as_str),
        Some("hidden:false"),
        "{log:?}"
    );
    assert_eq!(
        log.last().map(String::as_str),
        Some("visible:true"),
        "{log:?}"
    );
    browser.close().await;
}
