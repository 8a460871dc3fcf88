//! The organizer's section: its checklist, and the hours its check-ins keep.

use crate::fixtures::api::mission;
use crate::fixtures::check::{any_text, text_from, text_is, text_with, value_len};
use crate::fixtures::on_new_mission_settings;
use fantoccini::Locator;
use serde_json::json;

/// The checklist as the section shows it, and its field once editing.
const CHECKLIST: &str = "[data-testid=checklist] [data-testid=markdown]";
const CHECKLIST_INPUT: &str = "[data-testid=checklist-input]";
/// The sentence that says when check-ins may run, and the button that saves new hours.
const HOURS: &str = "[data-testid=hours-sentence]";
const SAVE_HOURS: &str = "[data-testid=save-hours]";

#[tokio::test(flavor = "multi_thread")]
async fn the_organizer_checklist_is_edited_and_kept_when_a_save_fails() {
    // The server runs as long as it is bound.
    let (_server, browser, mission) = on_new_mission_settings("Keep production healthy").await;
    let c = &browser.client;
    let shown = any_text(&browser, CHECKLIST).await;
    assert!(
        shown.starts_with("Assess which phase the mission is in"),
        "{shown}"
    );

    // A save the server refuses keeps the text and says why.
    browser.click("[data-testid=edit-checklist]").await;
    let too_long = "- [ ] x\n".repeat(1001);
    browser.fill(CHECKLIST_INPUT, &too_long).await;
    let count = text_from(&browser, "[data-testid=checklist-count]", "8008").await;
    assert_eq!(count, "8008 / 8000 characters");
    browser.click("[data-testid=save-checklist]").await;
    let error = any_text(&browser, "[data-testid=checklist-error]").await;
    assert!(
        error.starts_with("Not saved: heartbeatChecklist must be at most 8000 characters"),
        "{error}"
    );
    let kept = value_len(&browser, CHECKLIST_INPUT).await;
    assert_eq!(kept, Some(too_long.len()));

    // Leaving with unsaved text asks first; staying keeps it.
    browser.click_link("Missions").await;
    let question = c.get_alert_text().await.unwrap();
    assert_eq!(
        question,
        "You have unsaved changes. Leave without saving them?"
    );
    c.dismiss_alert().await.unwrap();
    assert!(browser.path().await.ends_with(&mission));

    // A good save shows the new checklist, also after a reload.
    browser
        .fill(
            CHECKLIST_INPUT,
            "- [ ] API p99 under **200 ms**\n- [x] No `5xx` spike <b>now</b>",
        )
        .await;
    browser.click("[data-testid=save-checklist]").await;
    text_with(&browser, CHECKLIST, "API p99 under 200 ms").await;
    c.refresh().await.unwrap();
    let shown = any_text(&browser, CHECKLIST).await;
    assert_eq!(shown, "API p99 under 200 ms\nNo 5xx spike <b>now</b>");
    let bold = c
        .find(Locator::Css(
            "[data-testid=checklist] [data-testid=markdown] strong",
        ))
        .await
        .unwrap();
    assert_eq!(bold.text().await.unwrap(), "200 ms");
    assert!(browser.absent("[data-testid=markdown] b").await);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn active_hours_and_check_ins_show_on_the_mission_page() {
    let (server, browser, id) = on_new_mission_settings("Nightly export").await;
    let sentence = any_text(&browser, HOURS).await;
    assert_eq!(sentence, "Check-ins may run at any hour.");

    browser.click("[data-testid=edit-hours]").await;
    browser.click("[data-testid=hours-enabled]").await;
    for select in ["hours-start", "hours-end"] {
        browser.fill(&format!("[data-testid={select}]"), "22").await;
    }
    browser.click(SAVE_HOURS).await;
    text_is(
        &browser,
        "[data-testid=hours-error]",
        "Start and end must differ: the window would be empty.",
    )
    .await;
    browser.fill("[data-testid=hours-end]", "6").await;
    browser
        .fill("[data-testid=hours-zone]", "Europe/Paris")
        .await;
    let preview = text_with(&browser, "[data-testid=hours-preview]", "Europe/Paris").await;
    assert_eq!(
        preview,
        "Check-ins run between 22:00 and 06:00 Europe/Paris (overnight); outside these hours they wait."
    );
    browser.click(SAVE_HOURS).await;
    text_with(&browser, HOURS, "22:00 and 06:00").await;
    let next = any_text(&browser, "[data-testid=next-check-in]").await;
    assert!(next.starts_with("Next check-in may run in "), "{next}");
    let m = mission(&server, &id).await;
    assert_eq!(
        m["checkIns"]["activeHours"],
        json!({"start": 22, "end": 6, "timezone": "Europe/Paris"})
    );

    // A check-in tick while the organizer is still planning: the timeline says why it waited.
    browser
        .run("const s = document.querySelector('[data-testid=edit-hours]'); s.click();")
        .await;
    browser.click("[data-testid=hours-enabled]").await;
    browser.click(SAVE_HOURS).await;
    text_is(&browser, HOURS, "Check-ins may run at any hour.").await;
    let later = chrono::Utc::now() + chrono::Duration::minutes(61);
    let ran = buildd_server::scheduler::tick(&server.db, later, &Default::default())
        .await
        .unwrap();
    assert!(ran >= 1, "the mission's check-in was due");
    text_with(
        &browser,
        "[data-testid=runs-timeline]",
        "Check-in · deferred: the organizer is planning",
    )
    .await;
    let status = any_text(&browser, "[data-testid=last-check-in]").await;
    assert!(
        status.ends_with("deferred: the organizer is planning"),
        "{status}"
    );
    browser.close().await;
}
