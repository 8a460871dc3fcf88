//! A plan in review on its planning task's page: approving it, sending it back with
//! feedback, and the revision that follows.

use crate::fixtures::api::{
    approve_plan, mission_id, new_mission, pending_children_of, plan_in_review_of, planned,
};
use crate::fixtures::check::{any_text, text_from, text_is, text_with};
use crate::fixtures::{connected, open, opened, Page};
use buildd_testkit::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_is_reviewed_and_approved_from_its_task_page() {
    let server = TestServer::start_demo().await;
    let plan = plan_in_review_of(&server, "Add a health endpoint").await;
    let browser = connected(&server).await;
    let c = &browser.client;
    // The mission card leads to the plan.
    let link = browser.wait_for("[data-testid=plan-review-link]").await;
    assert_eq!(link.text().await.unwrap(), "A plan waits for your review →");
    link.click().await.unwrap();
    browser.wait_for("[data-testid=plan-review]").await;
    assert!(browser.path().await.ends_with(&plan));
    assert_eq!(browser.count("[data-testid=plan-step]").await, 3);
    let ready = any_text(&browser, "[data-testid=plan-dispatchable]").await;
    assert_eq!(
        ready,
        "3 steps · 1 can start as soon as the plan is approved"
    );
    let waves = browser.attr("[data-testid=plan-waves]", "aria-label").await;
    assert_eq!(
        waves.as_deref(),
        Some("3 steps in 2 waves; 1 can start at once")
    );

    browser.click("[data-testid=approve-plan]").await;
    let done = any_text(&browser, "[data-testid=plan-approved]").await;
    assert!(
        done.starts_with("Plan approved — 3 child tasks created"),
        "{done}"
    );
    text_is(
        &browser,
        "[data-testid=plan-banner]",
        "Plan approved — 3 child tasks created",
    )
    .await;
    assert_eq!(pending_children_of(&server, &plan).await, 3);

    // Another plan, reached without reloading the page, starts afresh.
    let other = new_mission(&server, "Rate limits").await;
    let steps = json!({"plan": [{"ref": "a", "title": "Add the limiter", "description": "d"}],
                       "summary": "One step.", "missionComplete": false});
    let planning = planned(&server, &other, steps).await;
    c.execute(
        "history.pushState({}, '', arguments[0]); dispatchEvent(new PopStateEvent('popstate'));",
        vec![format!("/tasks/{planning}").into()],
    )
    .await
    .unwrap();
    text_is(
        &browser,
        "[data-testid=plan-review] .card__title",
        "Plan in review",
    )
    .await;
    browser.wait_for("[data-testid=approve-plan]").await;
    assert!(browser.absent("[data-testid=plan-approved]").await);

    // The mission now lists the children; the plan is no longer in review.
    let mission = mission_id(&server, "Add a health endpoint").await;
    open(&browser, &server, Page::Mission(&mission)).await;
    browser.wait_for("[data-testid=progress-card]").await;
    assert!(
        browser.absent("[data-testid=plan-awaiting-review]").await,
        "an approved plan no longer waits on the mission page"
    );
    text_with(&browser, "[data-testid=tasks-queued]", "Add GET /healthz").await;
    text_with(&browser, "[data-testid=tasks-blocked]", "Document /healthz").await;
    let waiting = any_text(
        &browser,
        "[data-testid=tasks-blocked] [data-testid=waiting-on]",
    )
    .await;
    assert_eq!(waiting, "waiting on Add GET /healthz");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rejected_plan_leads_to_its_revision_and_keeps_feedback_on_failure() {
    const FEEDBACK: &str = "[data-testid=reject-feedback]";
    const SEND: &str = "[data-testid=send-feedback]";
    let server = TestServer::start_demo().await;
    let plan = plan_in_review_of(&server, "Add a health endpoint").await;
    // The mission page says a plan waits, and leads to it.
    let mission = mission_id(&server, "Add a health endpoint").await;
    let browser = opened(&server, Page::Mission(&mission)).await;
    let waiting = any_text(&browser, "[data-testid=plan-awaiting-review]").await;
    assert!(
        waiting.contains("Mission: Add a health endpoint finished planning"),
        "{waiting}"
    );
    browser.click_link("Review the plan").await;
    browser.wait_for("[data-testid=plan-review]").await;
    browser.click("[data-testid=reject-plan]").await;

    // An empty submission is refused in place.
    browser.click(SEND).await;
    text_from(&browser, "[data-testid=plan-error]", "Feedback is required").await;

    // Someone approves meanwhile: the page shows it live, and the feedback being written
    // stays, on screen and through the server's refusal.
    browser.type_into(FEEDBACK, "Check the database too").await;
    assert_eq!(approve_plan(&server, &plan).await, 200);
    text_from(
        &browser,
        "[data-testid=plan-moved-on]",
        "This plan is no longer in review",
    )
    .await;
    let kept = browser.value(FEEDBACK).await;
    assert_eq!(kept.as_deref(), Some("Check the database too"));
    browser.click(SEND).await;
    text_is(
        &browser,
        "[data-testid=plan-error]",
        "Plan already approved",
    )
    .await;
    let kept = browser.value(FEEDBACK).await;
    assert_eq!(kept.as_deref(), Some("Check the database too"));
    browser.close().await;

    // A plan still in review: rejecting lands on the revision.
    let mission = new_mission(&server, "Rate limits").await;
    let steps = json!({
        "plan": [{"ref": "limit", "title": "Add a rate limiter", "description": "Token bucket per key."}],
        "summary": "One step.", "missionComplete": false
    });
    let planning = planned(&server, &mission, steps).await;
    let browser = opened(&server, Page::Task(&planning)).await;
    browser.wait_for("[data-testid=plan-review]").await;
    browser.click("[data-testid=reject-plan]").await;
    browser.type_into(FEEDBACK, "  Split per endpoint.  ").await;
    browser.click(SEND).await;
    let title = browser
        .wait_text("[data-testid=task-title]", |t| t.ends_with("(revised)"))
        .await;
    assert_eq!(title, "Mission: Rate limits (revised)");
    let path = browser.path().await;
    let revision = path.trim_start_matches("/tasks/").to_string();
    let r = server.get(&format!("/api/tasks/{revision}")).await;
    assert_eq!(r["context"]["planFeedback"], "Split per endpoint.");
    let banner = any_text(&browser, "[data-testid=plan-banner]").await;
    assert!(banner.starts_with("Waiting for a worker"), "{banner}");
    let origin = any_text(&browser, "[data-testid=plan-revision-of]").await;
    assert_eq!(
        origin,
        "Revision of the rejected plan, after the feedback: “Split per endpoint.”"
    );

    // The rejected plan says so, and leads to its revision.
    browser.click_link("the rejected plan").await;
    text_from(
        &browser,
        "[data-testid=plan-banner]",
        "Plan rejected with feedback: “Split per endpoint.”",
    )
    .await;
    assert!(browser.absent("[data-testid=plan-review]").await);
    browser.click("[data-testid=plan-revision-link]").await;
    browser
        .wait_text("[data-testid=task-title]", |t| t.ends_with("(revised)"))
        .await;
    assert!(browser.path().await.ends_with(&revision));
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_plan_leads_its_page_and_the_decision_stays_in_view() {
    let server = TestServer::start_demo().await;
    let plan = plan_in_review_of(&server, "Add a health endpoint").await;
    let browser = buildd_testkit::Browser::start(1366).await;
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=command-center]").await;
    open(&browser, &server, Page::Task(&plan)).await;
    browser.wait_for("[data-testid=plan-review]").await;
    text_is(&browser, "[data-testid=task-state]", "in review").await;
    // The plan comes before the organizer's brief; Approve is on screen without scrolling.
    let layout = browser
        .run(
            "const top = s => document.querySelector(s).getBoundingClientRect().top;
             const approve = document.querySelector('[data-testid=approve-plan]').getBoundingClientRect();
             return [top('[data-testid=plan-review]') < top('[data-testid=task-brief]'),
                     approve.bottom <= window.innerHeight, approve.top >= 0];",
        )
        .await;
    assert_eq!(layout, json!([true, true, true]), "at 1366×900");
    // Scrolled down through the steps, the decision bar is still in view.
    browser
        .run("document.querySelector('[data-testid=plan-step]:last-child').scrollIntoView(); return null")
        .await;
    let still = browser
        .run(
            "const r = document.querySelector('[data-testid=approve-plan]').getBoundingClientRect();
             return r.top >= 0 && r.bottom <= window.innerHeight;",
        )
        .await;
    assert_eq!(still, json!(true));

    // Reject puts the cursor in its form, and a refusal shows beside the text box.
    browser.click("[data-testid=reject-plan]").await;
    let focused = browser
        .run("return document.activeElement.dataset.testid || null")
        .await;
    assert_eq!(focused, json!("reject-feedback"));
    browser.click("[data-testid=send-feedback]").await;
    text_from(
        &browser,
        "[data-testid=reject-form] [data-testid=plan-error]",
        "Feedback is required",
    )
    .await;

    // Once approved, the panel no longer reads as waiting for a decision.
    browser.click("[data-testid=reject-plan]").await;
    browser.click("[data-testid=approve-plan]").await;
    text_from(&browser, "[data-testid=plan-approved]", "Plan approved").await;
    text_is(
        &browser,
        "[data-testid=plan-dispatchable]",
        "3 steps filed · 1 could start at once",
    )
    .await;
    let border = browser
        .attr("[data-testid=plan-review]", "class")
        .await
        .unwrap_or_default();
    assert!(border.contains("plan-review--decided"), "{border}");
    browser.close().await;
}
