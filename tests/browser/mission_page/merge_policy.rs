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

    // A value the server would refuse is named at its field as it is typed, in words, and
    // Save sends nothing while it stands: the field takes the focus.
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=policy-override]").await;
    browser
        .type_into("[data-testid=policy-max-lines]", "-3")
        .await;
    let error = any_text(&browser, "[data-testid=policy-error-max-lines]").await;
    assert_eq!(error, "Enter a whole number above 0.");
    assert_eq!(
        browser
            .attr("[data-testid=policy-max-lines]", "aria-invalid")
            .await
            .as_deref(),
        Some("true")
    );
    browser.click("[data-testid=save-policy]").await;
    let focused = browser.run("return document.activeElement.id").await;
    assert_eq!(focused, "policy-max-lines");
    assert_eq!(mission(&server, &id).await["mergePolicy"], json!(null));
    browser.fill("[data-testid=policy-max-lines]", "abc").await;
    text_is(
        &browser,
        "[data-testid=policy-error-max-lines]",
        "Enter a whole number above 0.",
    )
    .await;
    browser.fill("[data-testid=policy-max-lines]", "").await;
    assert!(browser.absent("[data-testid=policy-error-max-lines]").await);

    browser.fill("[data-testid=policy-tier]", "human").await;
    browser.click("[data-testid=save-policy]").await;
    text_is(&browser, EFFECTIVE, "Human — set on this mission").await;
    let m = mission(&server, &id).await;
    assert_eq!(m["mergePolicy"], json!({"tier": "human"}));
    assert_eq!(
        browser
            .texts("[data-testid=policy-summary] .facts__row")
            .await,
        [
            "Tier\nHuman: a person merges",
            "Stall notice\nafter 30 minutes waiting (default)"
        ]
    );

    // Reset to inherited.
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=reset-policy]").await;
    text_is(&browser, EFFECTIVE, INHERITED).await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn every_setting_saved_is_in_the_summary_and_a_missing_reviewer_is_named_on_save() {
    let (server, browser, id) = on_new_mission_settings("Search ranking").await;
    // Before any change, the summary is the built-in default, every setting of it.
    assert_eq!(
        browser
            .texts("[data-testid=policy-summary] .facts__row")
            .await,
        [
            "Tier\nAuto-threshold: merges on green CI when the rails pass",
            "Size cap\n800 changed lines",
            "Protected paths\nnone",
            "Stall notice\nafter 30 minutes waiting (default)"
        ]
    );
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=policy-override]").await;
    browser
        .fill("[data-testid=policy-tier]", "agent-review")
        .await;
    // A required field left empty is named once Save is pressed, not before.
    assert!(browser.absent("[data-testid=policy-error-reviewer]").await);
    browser.click("[data-testid=save-policy]").await;
    text_is(
        &browser,
        "[data-testid=policy-error-reviewer]",
        "Name the reviewer's role or skill, such as reviewer.",
    )
    .await;
    assert_eq!(mission(&server, &id).await["mergePolicy"], json!(null));

    browser
        .fill("[data-testid=policy-tier]", "auto-threshold")
        .await;
    browser.fill("[data-testid=policy-max-lines]", "400").await;
    browser
        .fill("[data-testid=policy-deny]", "db/\ninfra/")
        .await;
    browser.fill("[data-testid=policy-stall]", "45").await;
    browser.click("[data-testid=save-policy]").await;
    text_is(&browser, EFFECTIVE, "Auto-threshold — set on this mission").await;
    assert_eq!(
        browser
            .texts("[data-testid=policy-summary] .facts__row")
            .await,
        [
            "Tier\nAuto-threshold: merges on green CI when the rails pass",
            "Size cap\n400 changed lines",
            "Protected paths\ndb/, infra/",
            "Stall notice\nafter 45 minutes waiting"
        ]
    );
    assert_eq!(
        mission(&server, &id).await["mergePolicy"],
        json!({"tier": "auto-threshold", "threshold": {"maxLines": 400, "denyPaths": ["db/", "infra/"]},
               "stallNotifyMinutes": 45})
    );
    browser.close().await;
}
