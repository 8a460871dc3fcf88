//! Every main page against axe-core's rules, in both themes, and the command center by
//! keyboard alone: each stop shows where the focus is, and an action works with a key.

use crate::fixtures::check::any_text;
use crate::fixtures::connected;
use crate::fixtures::pages::{every_main_page, MainPage};
use buildd_testkit::{Browser, TestServer};
use fantoccini::key::Key;
use serde_json::Value;

/// Sets the theme the next page load starts in.
async fn set_theme(browser: &Browser, theme: &str) {
    browser
        .run(&format!("localStorage.setItem('buildd.theme', '{theme}')"))
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn every_main_page_has_no_serious_accessibility_violation_in_either_theme() {
    let server = TestServer::start_demo().await;
    let pages = every_main_page(&server).await;
    let browser = connected(&server).await;
    browser
        .client
        .set_window_size(1366, 900)
        .await
        .expect("window size");
    let mut serious = String::new();
    let mut lesser = String::new();
    for theme in ["light", "dark"] {
        set_theme(&browser, theme).await;
        for MainPage {
            name,
            path,
            settled,
        } in &pages
        {
            browser.goto(&server.url(path)).await;
            browser.wait_for(settled).await;
            let shown = browser
                .run("return document.documentElement.getAttribute('data-theme')")
                .await;
            assert_eq!(shown, *theme, "{name}");
            for violation in browser.axe().await {
                let found = format!("{name} ({theme}): {violation}");
                if violation.is_serious() {
                    serious.push_str(&found);
                } else {
                    lesser.push_str(&found);
                }
            }
        }
    }
    if !lesser.is_empty() {
        eprintln!("axe, moderate and minor:\n{lesser}");
    }
    assert!(serious.is_empty(), "axe, serious and critical:\n{serious}");
    browser.close().await;
}

/// What has the focus: its test id, else its tag and text; whether a focus ring shows (an
/// outline, or a box shadow standing in for one); whether it is in a mission's row.
const FOCUSED: &str = r#"
const e = document.activeElement;
if (!e || e === document.body) return null;
const style = getComputedStyle(e);
const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
  || style.boxShadow !== 'none';
const name = e.dataset.testid || `${e.tagName.toLowerCase()} ${(e.textContent || '').trim().slice(0, 60)}`;
return {name, ring, row: !!e.closest('[data-testid=command-row]'), text: e.textContent.trim()};
"#;

/// Presses Tab until the focus is where `reached` says, checking a focus ring at every
/// stop; the names of the stops, in order.
async fn tab_until(browser: &Browser, reached: impl Fn(&Value) -> bool) -> Vec<String> {
    let mut stops = Vec::new();
    for _ in 0..150 {
        browser.press(Key::Tab).await;
        let focused = browser.run(FOCUSED).await;
        let name = focused["name"].as_str().unwrap_or("(nothing)").to_string();
        assert_eq!(
            focused["ring"].as_bool(),
            Some(true),
            "no focus ring on {name}; after {stops:?}"
        );
        stops.push(name);
        if reached(&focused) {
            return stops;
        }
    }
    panic!("Tab never got there: {stops:?}");
}

/// [`tab_until`] the control with test id `testid`.
async fn tab_to(browser: &Browser, testid: &str) -> Vec<String> {
    tab_until(browser, |focused| focused["name"] == testid).await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_command_center_works_by_keyboard_with_a_visible_focus_in_both_themes() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    for theme in ["light", "dark"] {
        set_theme(&browser, theme).await;
        browser.goto(&server.url("/")).await;
        browser.wait_for("[data-testid=waiting-approve]").await;
        let stops = tab_to(&browser, "waiting-reject").await;
        for control in [
            "nav-command",
            "nav-missions",
            "nav-workspaces",
            "theme-toggle",
            "disconnect",
            "waiting-approve",
        ] {
            assert!(
                stops.iter().any(|s| s == control),
                "{control} not reached ({theme}): {stops:?}"
            );
        }
    }

    // Enter on Reject opens its feedback box, and the next Tab is in it.
    browser.press(Key::Enter).await;
    browser.wait_for(".waiting__form:not(.hidden)").await;
    tab_to(&browser, "waiting-feedback").await;

    // Space on the theme button switches the theme.
    browser.goto(&server.url("/")).await;
    browser.wait_for("[data-testid=waiting-approve]").await;
    tab_to(&browser, "theme-toggle").await;
    browser.press(Key::Space).await;
    let theme = browser
        .run("return document.documentElement.getAttribute('data-theme')")
        .await;
    assert_eq!(theme, "light", "Space on the theme button, from dark");

    // Further on, a mission's row; Enter opens the mission.
    tab_until(&browser, |focused| focused["row"] == true).await;
    let focused = browser.run(FOCUSED).await;
    let title = focused["text"]
        .as_str()
        .expect("the row's link")
        .to_string();
    browser.press(Key::Enter).await;
    let opened = any_text(&browser, "[data-testid=mission-title]").await;
    assert_eq!(opened, title);
    browser.close().await;
}
