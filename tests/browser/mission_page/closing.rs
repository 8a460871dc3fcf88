//! Closing a mission whose work is done.

use crate::fixtures::api::{mission, new_mission_with, new_task, organizer_run};
use crate::fixtures::check::{any_text, text_is};
use crate::fixtures::{opened, Page};
use buildd_testkit::{TestServer, WorkerVerbs};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_dormant_mission_is_closed_through_the_confirmation() {
    let server = TestServer::start_demo().await;
    let id = new_mission_with(
        &server,
        json!({"title": "Audit access", "requiresReview": true, "isHeartbeat": false}),
    )
    .await;
    let task = new_task(&server, "Review the access list", Some(&id)).await;
    let worker = server.claim_task(&task).await;
    server
        .report_ok(
            &worker,
            json!({"status": "completed", "summary": "Reviewed"}),
        )
        .await;
    // The finished work asks the organizer; it proposes completion with nothing more to do.
    let run = organizer_run(&server, &id).await;
    server
        .complete_with_output(
            &run,
            json!({"plan": [], "summary": "The access list is reviewed", "missionComplete": true}),
        )
        .await;

    let browser = opened(&server, Page::Mission(&id)).await;
    let banner = any_text(&browser, "[data-testid=close-mission] .card__title").await;
    assert_eq!(
        banner,
        "All work is done — this mission needs your review to close"
    );
    let outcome = any_text(&browser, "[data-testid=mission-outcome]").await;
    assert_eq!(
        outcome,
        "PRs: 0 merged, 0 open · tasks: 1 completed, 0 failed"
    );
    browser.click("[data-testid=close-mission-button]").await;
    browser.wait_for("[data-testid=close-confirm]").await;
    assert!(browser.absent("[data-testid=close-warning]").await);
    browser.click("[data-testid=confirm-close]").await;
    browser
        .wait_text("[data-testid=state-chip]", |t| {
            t.eq_ignore_ascii_case("completed")
        })
        .await;
    assert!(
        browser.absent("[data-testid=mission-status]").await,
        "the state chip says it once"
    );
    browser.click("[data-testid=tab-settings]").await;
    text_is(
        &browser,
        "[data-testid=organizer-mode]",
        "Closed: the organizer no longer plans for this mission.",
    )
    .await;
    assert!(
        browser.absent("[data-testid=run-organizer]").await,
        "a closed mission offers no Run"
    );
    let m = mission(&server, &id).await;
    assert_eq!(m["status"], "completed");
    assert_eq!(m["progress"], 100);
    assert_eq!(m["checkIns"]["enabled"], false);
    assert!(browser.absent("[data-testid=close-mission-button]").await);
    text_is(
        &browser,
        "[data-testid=completion-standing]",
        "Completed: the organizer proposed it and every deliverable landed.",
    )
    .await;
    browser.close().await;
}
