//! Nothing jumps while a page loads: what comes after the first answer ("Waiting on you",
//! the header's count) grows where it moves nothing already shown, so the cumulative layout
//! shift of a load stays within 0.05 (Lighthouse calls up to 0.1 good), wide and narrow.

use crate::fixtures::api::mission_id;
use crate::fixtures::connected;
use buildd_testkit::{cumulative, Browser, TestServer};

const MOST: f64 = 0.05;

/// The layout shift of the page loaded so far, with what moved, when over [`MOST`].
async fn shift_over_bound(browser: &Browser, page: &str) -> Option<String> {
    let shifts = browser.layout_shifts().await;
    let total = cumulative(&shifts);
    let moved: Vec<String> = shifts
        .iter()
        .map(|s| format!("{:.4} at {:.0} ms: {}", s.value, s.at, s.sources.join("; ")))
        .collect();
    let report = format!("{page}: layout shift {total:.4}\n  {}", moved.join("\n  "));
    eprintln!("{report}");
    (total > MOST).then_some(report)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_command_center_and_a_mission_load_without_moving_what_shows() {
    let server = TestServer::start_demo().await;
    let mission = mission_id(&server, "Checkout redesign").await;
    let mut over = Vec::new();
    for width in [1366u32, 375] {
        // Cold, from the dashboard link, as a first visit.
        let browser = Browser::start(width).await;
        browser.goto(&server.link()).await;
        browser.wait_for("[data-testid=command-row]").await;
        browser.wait_for("[data-testid=waiting-item]").await;
        browser.wait_for("[data-testid=nav-waiting-count]").await;
        over.extend(shift_over_bound(&browser, &format!("the command center at {width} px")).await);
        browser.close().await;

        let browser = connected(&server).await;
        browser
            .client
            .set_window_size(width, 900)
            .await
            .expect("window size");
        browser
            .goto(&server.url(&format!("/missions/{mission}")))
            .await;
        browser.wait_for("[data-testid=mission-title]").await;
        browser.wait_for("[data-testid=pr]").await;
        browser.wait_for("[data-testid=nav-waiting-count]").await;
        over.extend(shift_over_bound(&browser, &format!("the mission page at {width} px")).await);
        browser.close().await;
    }
    assert!(over.is_empty(), "more than {MOST}:\n{}", over.join("\n"));
}
