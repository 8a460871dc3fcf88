//! The mission's merge policy: what is in effect, and where it comes from.

use crate::fixtures::api::mission;
use crate::fixtures::check::{any_text, text_is};
use crate::fixtures::on_new_mission_settings;
use serde_json::json;

/// Where the page says which policy is in effect, and what it says when none is set.
const EFFECTIVE: &str = "[data-testid=effective-policy]";
const INHERITED: &str = "Auto-threshold — the built-in default";

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_switched_to_human_shows_its_effective_policy() {
    let (server, browser, id) = on_new_mission_settings("Payments hardening").await;
    let effective = any_text(&browser, EFFECTIVE).await;
    assert_eq!(effective, INHERITED);

    // A value the server refuses is shown at its field.
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=policy-override]").await;
    browser
        .type_into("[data-testid=policy-max-lines]", "-3")
        .await;
    browser.click("[data-testid=save-policy]").await;
    let error = any_text(&browser, "[data-testid=policy-error-threshold]").await;
    assert_eq!(error, "threshold.maxLines: must be a positive integer");

    browser.fill("[data-testid=policy-tier]", "human").await;
    browser.click("[data-testid=save-policy]").await;
    text_is(&browser, EFFECTIVE, "Human — set on this mission").await;
    let m = mission(&server, &id).await;
    assert_eq!(m["mergePolicy"], json!({"tier": "human"}));

    // Reset to inherited.
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=reset-policy]").await;
    text_is(&browser, EFFECTIVE, INHERITED).await;
    browser.close().await;
}
