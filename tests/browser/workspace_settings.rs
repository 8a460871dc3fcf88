//! A workspace's settings page: its default merge policy and merge switches.

use crate::fixtures::api::mission_workspace;
use crate::fixtures::check::{any_text, text_is, text_with};
use crate::fixtures::{on_new_mission_settings, open, Page};
use buildd_testkit::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_workspace_default_policy_and_merge_switches_are_set_on_its_settings_page() {
    const STALL: &str = "[data-testid=policy-stall]";
    let (server, browser, mission) = on_new_mission_settings("Inherits its workspace").await;
    let workspace = mission_workspace(&server).await;
    let settings = format!("/api/workspaces/{workspace}");
    browser.click("[data-testid=workspace-settings-link]").await;
    let current = any_text(&browser, "[data-testid=workspace-policy-current]").await;
    assert_eq!(
        current,
        "Default: auto-threshold, 800 lines (the built-in default)"
    );

    // A refused value is shown at its field and the form keeps what was typed.
    browser
        .click("[data-testid=workspace-policy] [data-testid=edit-policy]")
        .await;
    browser.click("[data-testid=policy-override]").await;
    browser.fill("[data-testid=policy-tier]", "human").await;
    browser.fill(STALL, "soon").await;
    browser.click("[data-testid=save-policy]").await;
    let error = any_text(&browser, "[data-testid=policy-error-stall]").await;
    assert_eq!(error, "Enter a whole number above 0.");
    assert_eq!(browser.value(STALL).await.as_deref(), Some("soon"));
    browser.fill(STALL, "45").await;
    browser.click("[data-testid=save-policy]").await;
    text_is(
        &browser,
        "[data-testid=workspace-policy-current]",
        "Default: Human: a person merges",
    )
    .await;
    let ws = server.get(&settings).await;
    assert_eq!(
        ws["workspace"]["gitConfig"]["mergePolicy"],
        json!({"tier": "human", "stallNotifyMinutes": 45})
    );

    // Switches: auto-merge off, the reviewer gets the patch.
    browser.click("[data-testid=edit-settings]").await;
    browser.click("[data-testid=auto-merge]").await;
    browser.click("[data-testid=patch-evidence]").await;
    browser.click("[data-testid=save-settings]").await;
    let switches = text_with(&browser, "[data-testid=merge-settings-current]", "off").await;
    assert!(
        switches.contains("Auto-merge on green CI: off"),
        "{switches}"
    );
    assert!(
        switches.contains("the patch, with added lines numbered"),
        "{switches}"
    );
    let ws = server.get(&settings).await;
    assert_eq!(ws["workspace"]["gitConfig"]["autoMergeOnGreenCI"], false);
    assert_eq!(
        ws["workspace"]["gitConfig"]["policyConfig"]["reviewerPatchEvidence"],
        true
    );

    // The mission inherits the new default, and says so.
    open(&browser, &server, Page::MissionSettings(&mission)).await;
    let effective = any_text(&browser, "[data-testid=effective-policy]").await;
    assert!(effective.starts_with("Human"), "{effective}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_workspaces_are_listed_and_each_page_leads_back_to_the_list() {
    let server = TestServer::start_demo().await;
    let ws = crate::fixtures::api::new_workspace(&server, "billing", "acme/billing").await;
    let browser = crate::fixtures::connected(&server).await;
    browser.click("[data-testid=nav-workspaces]").await;
    browser
        .wait_text("[data-testid=workspaces-page]", |t| {
            t.contains("active missions")
        })
        .await;
    let all = browser.texts("[data-testid=workspace-row]").await;
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(
        all.iter()
            .any(|r| r.contains("storefront") && r.contains("active missions")),
        "{all:?}"
    );
    assert!(
        all.iter().any(|r| r.contains("billing")
            && r.contains("acme/billing")
            && r.contains("0 active missions")),
        "{all:?}"
    );
    browser.click_link("billing").await;
    text_is(&browser, "[data-testid=workspace-name]", "billing").await;
    assert_eq!(browser.path().await, format!("/workspaces/{ws}"));
    browser.click("[data-testid=breadcrumb-workspaces]").await;
    browser.wait_for("[data-testid=workspaces-page]").await;
    assert_eq!(browser.path().await, "/workspaces");
    browser.close().await;
}
