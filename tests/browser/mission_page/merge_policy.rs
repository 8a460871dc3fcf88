//! The mission's merge policy: what is in effect, and where it comes from.

use crate::fixtures::api::{mission, pr_of, task_with_green_pr};
use crate::fixtures::check::{any_text, text_is, text_with};
use crate::fixtures::{on_new_mission_settings, open, Page};
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

/// The what-if under the form, on a seeded history of the mission's three PRs with green CI:
/// a small one (merged by itself), one of 900 lines (over the built-in 800-line cap) and one
/// under `infra/`. Each policy typed is replayed before Save, by the server's own decision.
#[tokio::test(flavor = "multi_thread")]
async fn the_policy_typed_is_replayed_over_the_missions_prs_before_save() {
    const PROPOSED: &str = "[data-testid=what-if-proposed]";
    let (server, browser, id) = on_new_mission_settings("Replayed").await;
    let file = |path: &str, lines: i64| json!([{"path": path, "status": "modified", "additions": lines, "deletions": 0}]);
    task_with_green_pr(&server, &id, 901, file("src/cart.rs", 20)).await;
    task_with_green_pr(&server, &id, 902, file("src/big.rs", 900)).await;
    task_with_green_pr(&server, &id, 903, file("infra/prod.tf", 4)).await;
    assert_eq!(pr_of(&server, &id, 901).await["state"], "merged");
    assert_eq!(pr_of(&server, &id, 902).await["state"], "open");

    browser.click("[data-testid=edit-policy]").await;
    let now = "As things stand: Of 3 PRs, 2 would have merged by themselves; 1 would have \
               waited for a person (size cap 1).";
    text_is(&browser, "[data-testid=what-if-now]", now).await;
    // Inherit, as the mission stands: the same figures.
    text_is(
        &browser,
        PROPOSED,
        &now.replace("As things stand", "With this policy"),
    )
    .await;

    // A higher cap lets the big one through.
    browser.click("[data-testid=policy-override]").await;
    browser.fill("[data-testid=policy-max-lines]", "1000").await;
    text_is(
        &browser,
        PROPOSED,
        "With this policy: Of 3 PRs, 3 would have merged by themselves.",
    )
    .await;
    // A typo names its field, and nothing is replayed until it is fixed.
    browser.fill("[data-testid=policy-max-lines]", "lots").await;
    text_with(&browser, PROPOSED, "fix the fields above").await;
    browser.fill("[data-testid=policy-max-lines]", "").await;

    // Infra protected: the infra PR waits for a person, by the protected-path rail.
    browser.fill("[data-testid=policy-deny]", "infra/").await;
    text_is(
        &browser,
        PROPOSED,
        "With this policy: Of 3 PRs, 1 would have merged by itself; 2 would have waited for \
         a person (size cap 1, protected path 1).",
    )
    .await;
    // Each PR one click away, with why it would wait.
    browser.click("[data-testid=what-if-prs] summary").await;
    let rows = browser.texts("[data-testid=what-if-prs] tbody tr").await;
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        rows[0].starts_with("#901") && rows[0].contains("merged"),
        "{rows:?}"
    );
    assert!(
        rows[2].contains("Merged by itself")
            && rows[2].contains("Waited for a person")
            && rows[2].contains("touches protected path infra/prod.tf (matched infra/)"),
        "{rows:?}"
    );
    // Nothing was saved: the what-if only reads.
    assert_eq!(mission(&server, &id).await["mergePolicy"], json!(null));

    // Open, with its PRs shown, it has no serious accessibility violation in either theme.
    let mut serious = String::new();
    for theme in ["light", "dark"] {
        browser
            .run(&format!("localStorage.setItem('buildd.theme', '{theme}')"))
            .await;
        open(&browser, &server, Page::MissionSettings(&id)).await;
        browser.click("[data-testid=edit-policy]").await;
        browser.click("[data-testid=policy-override]").await;
        browser.fill("[data-testid=policy-deny]", "infra/").await;
        text_with(&browser, PROPOSED, "protected path 1").await;
        browser.click("[data-testid=what-if-prs] summary").await;
        for violation in browser.axe().await {
            if violation.is_serious() {
                serious.push_str(&format!("{theme}: {violation}"));
            }
        }
    }
    assert!(serious.is_empty(), "axe, serious and critical:\n{serious}");
    browser.close().await;
}
