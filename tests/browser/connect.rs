//! Connecting: the link with the key, the connect screen, a wrong key, disconnecting. The
//! first test then follows a person from the list to a mission and one of its tasks.

use crate::fixtures::api::{mission, mission_id};
use crate::fixtures::check::{any_text, text_from, text_is, text_with};
use crate::fixtures::unconnected;
use buildd_core::MissionDetail;
use buildd_testkit::{Browser, TestServer};
use fantoccini::Locator;

#[tokio::test(flavor = "multi_thread")]
async fn the_link_connects_and_a_mission_shows_its_progress() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(1280).await;
    let c = &browser.client;

    browser.goto(&server.link()).await;
    // The link lands on the command center, connected.
    browser.wait_for("[data-testid=command-center]").await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.fragment(), None, "the key leaves the address bar");
    assert!(!url.as_str().contains("bld_"));
    let stored = browser
        .run("return localStorage.getItem('buildd.apiKey')")
        .await;
    assert_eq!(stored.as_str(), Some(server.key.as_str()));

    // Every demo mission is listed, in its group.
    browser.click("[data-testid=nav-missions]").await;
    browser.wait_for("[data-testid=mission-card]").await;
    assert_eq!(browser.count("[data-testid=mission-card]").await, 6);
    let running = text_with(&browser, "[data-testid=group-running]", "Checkout redesign").await;
    assert!(running.to_lowercase().starts_with("running"), "{running}");
    text_with(
        &browser,
        "[data-testid=group-awaiting-review]",
        "Add a health endpoint",
    )
    .await;

    // Open a mission from the list, as a person would.
    browser.click_link("Checkout redesign").await;
    let percent = browser
        .wait_text("[data-testid=progress-percent]", |t| t.ends_with('%'))
        .await;
    let id = mission_id(&server, "Checkout redesign").await;
    let detail: MissionDetail = serde_json::from_value(mission(&server, &id).await).unwrap();
    assert_eq!(percent, format!("{}%", detail.progress));
    assert_eq!(
        percent, "25%",
        "1 of 4 deliverables merged; the cancelled one does not count"
    );

    let bar = "[data-testid=progress-card] [data-testid=progress-bar]";
    let label = browser.attr(bar, "aria-label").await;
    let (done, total) = (detail.completed_tasks, detail.total_tasks);
    assert_eq!(label, Some(format!("{done} of {total} tasks complete")));
    let segments = c
        .find_all(Locator::Css(&format!("{bar} .seg")))
        .await
        .unwrap();
    let mut states = Vec::new();
    for s in &segments {
        states.push(s.attr("class").await.unwrap().unwrap_or_default());
    }
    assert_eq!(
        states,
        [
            "seg seg--solid",
            "seg seg--half",
            "seg seg--ghost",
            "seg seg--empty"
        ]
    );
    let subtitle = any_text(&browser, "[data-testid=progress-subtitle]").await;
    assert_eq!(subtitle, "1/4 done · 1 awaiting merge");
    text_with(
        &browser,
        "[data-testid=tasks-running]",
        "Add address autocomplete",
    )
    .await;
    text_with(
        &browser,
        "[data-testid=tasks-blocked]",
        "Wire analytics events",
    )
    .await;

    // A reload keeps the connection and the page.
    c.refresh().await.unwrap();
    let again = browser
        .wait_text("[data-testid=progress-percent]", |t| t.ends_with('%'))
        .await;
    assert_eq!(again, "25%");
    assert!(browser.path().await.starts_with("/missions/"));

    // A task's own page, from its row.
    browser.click_link("Restyle payment form").await;
    text_is(&browser, "[data-testid=task-title]", "Restyle payment form").await;
    let pr = text_from(&browser, "[data-testid=task-pr]", "PR #").await;
    assert!(pr.ends_with("open"), "{pr}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_link_with_a_wrong_key_is_checked_and_not_kept() {
    let server = TestServer::start_demo().await;
    let browser = unconnected(&server, 1280, "/#key=bld_not_a_real_key").await;
    let message = text_with(&browser, "[data-testid=connect-error]", "401").await;
    assert!(message.contains("rejected this API key"), "{message}");
    assert_eq!(browser.path().await, "/connect");
    let stored = browser
        .run("return localStorage.getItem('buildd.apiKey')")
        .await;
    assert!(stored.is_null(), "an unchecked key is not kept");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_worker_key_connects_but_is_told_it_cannot_review() {
    let server = TestServer::start_demo().await;
    let browser = unconnected(&server, 1280, "/connect").await;
    let input = browser.wait_for("[data-testid=key-input]").await;
    input.send_keys(&server.worker_key).await.unwrap();
    browser.click("[data-testid=connect-submit]").await;
    let notice = text_with(&browser, "[data-testid=connect-limited]", "worker-level").await;
    assert!(notice.contains("need an admin-level key"), "{notice}");
    assert!(browser.absent("[data-testid=connect-error]").await);
    browser.click_link("Continue").await;
    browser.wait_for("[data-testid=command-center]").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_connect_screen_checks_the_key_and_keeps_what_was_typed() {
    let server = TestServer::start_demo().await;
    let browser = unconnected(&server, 375, "/").await;
    browser.wait_for("[data-testid=connect-form]").await;
    let input = browser.wait_for("[data-testid=key-input]").await;
    input.send_keys("bld_wrong").await.unwrap();
    browser.click("[data-testid=connect-submit]").await;
    text_with(&browser, "[data-testid=connect-error]", "401").await;
    let kept = browser.value("[data-testid=key-input]").await;
    assert_eq!(
        kept.as_deref(),
        Some("bld_wrong"),
        "the typed key is kept after a failure"
    );

    input.clear().await.unwrap();
    input.send_keys(&server.key).await.unwrap();
    browser.click("[data-testid=connect-submit]").await;
    browser.wait_for("[data-testid=command-center]").await;
    // Usable at 375 px: nothing wider than the viewport, on the command center and the list.
    for (page, next) in [
        ("command center", Some("nav-missions")),
        ("mission list", None),
    ] {
        if page == "mission list" {
            browser.wait_for("[data-testid=mission-card]").await;
        }
        let overflow = browser
            .run("return document.documentElement.scrollWidth > window.innerWidth")
            .await;
        assert_eq!(overflow.as_bool(), Some(false), "the {page} fits 375 px");
        if let Some(link) = next {
            // The header is one row: its links are under Menu.
            let header = browser
                .run("return document.querySelector('.topbar').getBoundingClientRect().height")
                .await;
            assert!(
                header.as_f64().unwrap() < 64.0,
                "the header is {header} px tall"
            );
            let shown =
                "return document.querySelector('[data-testid=nav-missions]').offsetParent !== null";
            assert_eq!(browser.run(shown).await.as_bool(), Some(false));
            browser.click("[data-testid=menu]").await;
            assert_eq!(browser.run(shown).await.as_bool(), Some(true));
            browser.click(&format!("[data-testid={link}]")).await;
        }
    }

    browser.click("[data-testid=menu]").await;
    browser.click("[data-testid=disconnect]").await;
    browser.wait_for("[data-testid=connect-form]").await;
    let stored = browser
        .run("return localStorage.getItem('buildd.apiKey')")
        .await;
    assert!(stored.is_null(), "disconnecting forgets the key");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stored_key_the_server_refuses_is_forgotten_and_connecting_returns_to_the_page() {
    let server = TestServer::start_demo().await;
    let id = mission_id(&server, "Checkout redesign").await;
    // A key this browser kept, since revoked: it opens a mission's link.
    let browser = unconnected(&server, 1280, "/connect").await;
    browser
        .run("localStorage.setItem('buildd.apiKey', 'bld_revoked'); localStorage.setItem('buildd.apiBase', ''); return null")
        .await;
    browser.goto(&server.url(&format!("/missions/{id}"))).await;
    let said = any_text(&browser, "[data-testid=key-rejected]").await;
    assert!(
        said.contains("rejected the stored API key (401 Unauthorized)"),
        "{said}"
    );
    let url = browser.client.current_url().await.unwrap();
    assert_eq!(url.path(), "/connect");
    assert_eq!(
        url.query_pairs()
            .find(|(k, _)| k == "next")
            .map(|(_, v)| v.to_string()),
        Some(format!("/missions/{id}"))
    );
    let stored = browser
        .run("return localStorage.getItem('buildd.apiKey')")
        .await;
    assert!(stored.is_null(), "the refused key is forgotten: {stored}");
    // Only the way back in: no server name, no Disconnect.
    assert!(browser.absent("[data-testid=disconnect]").await);
    // Nothing asks with the refused key again.
    browser
        .run("performance.clearResourceTimings(); return null")
        .await;
    tokio::time::sleep(std::time::Duration::from_secs(12)).await;
    let asked = browser
        .run("return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/')).length")
        .await;
    assert_eq!(asked.as_u64(), Some(0), "no request after the 401");

    // A valid key goes back to the mission the link pointed at.
    let input = browser.wait_for("[data-testid=key-input]").await;
    input.send_keys(&server.key).await.unwrap();
    browser.click("[data-testid=connect-submit]").await;
    text_is(&browser, "[data-testid=mission-title]", "Checkout redesign").await;
    assert!(browser.path().await.ends_with(&id));
    assert!(browser.absent("[data-testid=key-rejected]").await);
    browser.close().await;
}
