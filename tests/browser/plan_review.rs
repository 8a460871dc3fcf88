//! A plan in review on its planning task's page: approving it, sending it back with
//! feedback, and the revision that follows.

use crate::fixtures::api::{
    approve_plan, id_of, mission_id, new_mission, new_mission_with, new_task, new_workspace,
    pending_children_of, plan_in_review_of, planned,
};
use crate::fixtures::check::{any_text, text_from, text_is, text_with};
use crate::fixtures::{connected, open, opened, Page};
use buildd_server::demo::worker::demo_plan;
use buildd_testkit::{TestServer, WorkerVerbs};
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
    const COMMENT: &str = "[data-testid=plan-step]:first-child [data-testid=step-comment-input]";
    browser
        .click("[data-testid=plan-step]:first-child [data-testid=comment-step]")
        .await;
    browser.type_into(COMMENT, "Name the route").await;
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
    let kept = browser.value(COMMENT).await;
    assert_eq!(kept.as_deref(), Some("Name the route"));
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
    text_is(&browser, "[data-testid=revision-number]", "Revision 2").await;
    text_with(
        &browser,
        "[data-testid=earlier-feedback]",
        "Split per endpoint.",
    )
    .await;

    // The rejected plan says so, and leads to its revision.
    browser.click_link("Revision 1").await;
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

/// Fails on any serious or critical axe-core violation of the page as it is now.
async fn no_serious_violation(browser: &buildd_testkit::Browser, what: &str) {
    let serious: Vec<String> = browser
        .axe()
        .await
        .into_iter()
        .filter(|v| v.is_serious())
        .map(|v| v.to_string())
        .collect();
    assert!(serious.is_empty(), "{what}: {}", serious.join("\n"));
}

/// What `inner` matches in the plan step with ref `r`.
fn step(r: &str, inner: &str) -> String {
    format!("[data-testid=plan-step][data-ref={r}] {inner}")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_revision_is_compared_with_the_plan_it_replaces_and_answers_step_comments() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Search").await;
    let first = planned(&server, &mission, demo_plan("Search", None)).await;
    let browser = opened(&server, Page::Task(&first)).await;
    browser.wait_for("[data-testid=plan-review]").await;
    assert!(browser.absent("[data-testid=revision-history]").await);
    assert!(browser.absent("[data-testid=plan-compare]").await);

    // Two steps get a comment each, beside the overall feedback.
    browser.click("[data-testid=reject-plan]").await;
    text_from(
        &browser,
        "[data-testid=step-comment-count]",
        "Open a step above",
    )
    .await;
    browser
        .click(&step("server", "[data-testid=comment-step]"))
        .await;
    browser
        .type_into(
            &step("server", "[data-testid=step-comment-input]"),
            "Cover the error paths",
        )
        .await;
    browser
        .click(&step("audit", "[data-testid=comment-step]"))
        .await;
    browser
        .type_into(
            &step("audit", "[data-testid=step-comment-input]"),
            "Include the logs",
        )
        .await;
    text_is(
        &browser,
        "[data-testid=step-comment-count]",
        "2 step comments go with it.",
    )
    .await;
    const FEEDBACK: &str = "Tighten the server step";
    browser
        .type_into("[data-testid=reject-feedback]", FEEDBACK)
        .await;
    browser.click("[data-testid=send-feedback]").await;
    browser
        .wait_text("[data-testid=task-title]", |t| t.ends_with("(revised)"))
        .await;
    let revision = browser
        .path()
        .await
        .trim_start_matches("/tasks/")
        .to_string();
    let sent = server.get(&format!("/api/tasks/{revision}")).await;
    assert_eq!(
        sent["context"]["planStepComments"],
        json!([{"ref": "audit", "comment": "Include the logs"},
               {"ref": "server", "comment": "Cover the error paths"}]),
        "{sent}"
    );
    // Before its plan is in, the revision already tells its history.
    text_is(&browser, "[data-testid=revision-number]", "Revision 2").await;
    let earlier = text_with(&browser, "[data-testid=revision-earlier]", FEEDBACK).await;
    assert!(earlier.starts_with("Revision 1 was sent back"), "{earlier}");
    let comments = browser.texts("[data-testid=earlier-step-comment]").await;
    assert_eq!(
        comments,
        ["audit: Include the logs", "server: Cover the error paths"]
    );

    // The organizer answers: one step reworked, one dropped, one added.
    server
        .complete_with_output(&revision, demo_plan("Search", Some(FEEDBACK)))
        .await;
    browser.wait_for("[data-testid=plan-compare]").await;
    text_is(
        &browser,
        "[data-testid=plan-compare-summary]",
        "1 added · 1 removed · 1 changed · 3 unchanged",
    )
    .await;
    text_is(
        &browser,
        "[data-testid=plan-compare] h3",
        "Compared with revision 1",
    )
    .await;
    let changed = "[data-testid=compare-step][data-change=changed]";
    text_is(
        &browser,
        &format!("{changed} [data-testid=compare-fields]"),
        "Changed: description",
    )
    .await;
    let diff = browser
        .run(&format!(
            "const d = document.querySelector('{changed} [data-testid=word-diff]');
             return [Array.from(d.querySelectorAll('ins')).map(e => e.textContent),
                     Array.from(d.querySelectorAll('del')).map(e => e.textContent)];"
        ))
        .await;
    assert_eq!(
        diff,
        json!([
            [format!("[added: checklist and the review: {FEEDBACK}]")],
            ["[removed: checklist.]"]
        ]),
        "{diff}"
    );
    text_with(
        &browser,
        "[data-testid=compare-step][data-change=removed]",
        "Verify Search end to end",
    )
    .await;
    text_with(
        &browser,
        "[data-testid=compare-step][data-change=added]",
        "Address the review feedback",
    )
    .await;
    // Each step says how it changed, and each comment whether it was heard.
    text_is(
        &browser,
        &step("feedback", "[data-testid=step-change]"),
        "added",
    )
    .await;
    text_is(
        &browser,
        &step("server", "[data-testid=step-change]"),
        "changed",
    )
    .await;
    assert!(
        browser
            .absent(&step("audit", "[data-testid=step-change]"))
            .await
    );
    let heard = |r: &str| {
        let css = step(r, "[data-testid=comment-outcome]");
        let browser = &browser;
        async move { browser.attr(&css, "data-outcome").await }
    };
    assert_eq!(heard("server").await.as_deref(), Some("addressed"));
    assert_eq!(heard("audit").await.as_deref(), Some("unchanged"));
    text_with(
        &browser,
        &step("server", "[data-testid=comment-outcome]"),
        "Cover the error paths",
    )
    .await;
    let waves = browser
        .attr("[data-testid=plan-waves]", "aria-label")
        .await
        .unwrap_or_default();
    assert!(
        waves.ends_with("; 1 added, 1 changed since the last revision"),
        "{waves}"
    );
    assert_eq!(browser.count(".waves__step--added").await, 1);
    assert_eq!(browser.count(".waves__step--changed").await, 1);
    browser.click("[data-testid=reject-plan]").await;
    no_serious_violation(&browser, "a revision compared, Reject open").await;

    // The history leads back to the plan that was sent back.
    browser.click_link("Revision 1").await;
    text_from(&browser, "[data-testid=plan-banner]", "Plan rejected").await;
    assert!(browser.path().await.ends_with(&first));
    browser.close().await;
}

/// The steps `plan` filed, by title.
async fn children_of(server: &TestServer, mission: &str, plan: &str) -> Vec<(String, String)> {
    let tasks = server.get(&format!("/api/tasks?missionId={mission}")).await;
    tasks["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["parentTaskId"] == plan)
        .map(|t| (t["title"].as_str().unwrap().to_string(), id_of(t)))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_approved_plan_tracks_each_step_live() {
    const SUMMARY: &str = "[data-testid=plan-outcome-summary]";
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Tracking").await;
    let steps = json!({
        "plan": [
            {"ref": "api", "title": "Add the API", "description": "d"},
            {"ref": "ui", "title": "Add the screen", "description": "d", "dependsOn": ["api"]},
            {"ref": "docs", "title": "Write the docs", "description": "d"}
        ],
        "summary": "Three steps.", "missionComplete": false
    });
    let plan = planned(&server, &mission, steps).await;
    let browser = opened(&server, Page::Task(&plan)).await;
    browser.click("[data-testid=approve-plan]").await;
    text_is(&browser, SUMMARY, "3 not started").await;
    assert_eq!(browser.count("[data-testid=tracked-step]").await, 3);

    // A runner finishes one step and starts another: the tracker follows.
    let children = children_of(&server, &mission, &plan).await;
    let id = |title: &str| {
        children
            .iter()
            .find(|(t, _)| t == title)
            .map(|(_, id)| id.clone())
            .unwrap()
    };
    let (status, body) = server
        .complete_task(&id("Add the API"), json!({"summary": "Added."}))
        .await;
    assert_eq!(status, 200, "{body}");
    text_is(&browser, SUMMARY, "1 done · 2 not started").await;
    let worker = server.claim_task(&id("Write the docs")).await;
    server
        .report_ok(&worker, json!({"status": "running", "costUsd": 0.42}))
        .await;
    text_is(&browser, SUMMARY, "1 done · 1 in flight · 1 not started").await;
    let states = browser.texts("[data-testid=tracked-state]").await;
    assert_eq!(states, ["done", "not started", "in flight"]);
    text_with(
        &browser,
        "[data-testid=tracked-step][data-state='in flight'] [data-testid=tracked-facts]",
        "cost $0.42",
    )
    .await;

    no_serious_violation(&browser, "an approved plan tracked").await;

    // Work filed later is listed apart; opened afresh, the approved plan is tracked too.
    new_task(&server, "Hotfix the login", Some(&mission)).await;
    text_with(&browser, "[data-testid=added-after]", "Hotfix the login").await;
    open(&browser, &server, Page::Task(&plan)).await;
    browser.wait_for("[data-testid=plan-outcome]").await;
    text_is(&browser, SUMMARY, "1 done · 1 in flight · 1 not started").await;
    assert!(browser.absent("[data-testid=plan-review]").await);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_forecast_states_its_basis_and_warns_before_approving_past_the_budget() {
    const TEXT: &str = "[data-testid=plan-forecast-text]";
    let server = TestServer::start_demo().await;
    let mission = new_mission_with(&server, json!({"title": "Costly", "costBudgetUsd": 5})).await;
    for (title, cost) in [("One", 1.2), ("Two", 1.4), ("Three", 1.6)] {
        let task = new_task(&server, title, Some(&mission)).await;
        let (status, body) = server
            .complete_task(&task, json!({"summary": "Done.", "costUsd": cost}))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let steps = json!({
        "plan": [
            {"ref": "a", "title": "A", "description": "d"},
            {"ref": "b", "title": "B", "description": "d"},
            {"ref": "c", "title": "C", "description": "d"}
        ],
        "summary": "Three steps.", "missionComplete": false
    });
    let plan = planned(&server, &mission, steps).await;
    let browser = opened(&server, Page::Task(&plan)).await;
    text_is(
        &browser,
        TEXT,
        "About $4.20 for 3 steps, from 3 finished tasks of this mission at a median $1.40.",
    )
    .await;
    text_is(
        &browser,
        "[data-testid=plan-forecast-warning]",
        "Over budget: Would take the mission to $8.40 of its $5.00 budget.",
    )
    .await;
    // The warning comes before Approve.
    let before = browser
        .run(
            "const w = document.querySelector('[data-testid=plan-forecast-warning]');
             const a = document.querySelector('[data-testid=approve-plan]');
             return !!(w.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);",
        )
        .await;
    assert_eq!(before, json!(true));

    // Where nothing has reported a cost, there is no number.
    let workspace = new_workspace(&server, "Fresh", "acme/fresh").await;
    let fresh =
        new_mission_with(&server, json!({"title": "Fresh", "workspaceId": workspace})).await;
    let one = json!({"plan": [{"ref": "a", "title": "A", "description": "d"}],
                     "summary": "One step.", "missionComplete": false});
    let plan = planned(&server, &fresh, one).await;
    open(&browser, &server, Page::Task(&plan)).await;
    text_from(&browser, TEXT, "No estimate yet").await;
    assert!(browser.absent("[data-testid=plan-forecast-warning]").await);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn comments_folded_into_the_feedback_text_are_read_back_as_buildd_sends_them() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Folded").await;
    let first = planned(&server, &mission, demo_plan("Folded", None)).await;
    // As a hosted Buildd keeps them: one text, a line a step, no `stepComments`.
    let text = "Tighten it\n\nStep `server`: Cover the error paths\nStep `ui`: Add a dark theme";
    let path = format!("/api/tasks/{first}/reject-plan");
    let (status, answer) = server
        .admin("POST", &path, Some(json!({ "feedback": text })))
        .await;
    assert_eq!(status, 200, "{answer}");
    let revision = answer["taskId"].as_str().unwrap().to_string();
    server
        .complete_with_output(&revision, demo_plan("Folded", Some("Tighten it")))
        .await;
    let browser = opened(&server, Page::Task(&revision)).await;
    browser.wait_for("[data-testid=plan-compare]").await;
    let heard = browser
        .run(
            "return ['server', 'ui'].map(r => document.querySelector(
               `[data-testid=plan-step][data-ref=${r}] [data-testid=comment-outcome]`
             )?.dataset.outcome ?? null);",
        )
        .await;
    assert_eq!(heard, json!(["addressed", "unchanged"]));
    text_is(&browser, "[data-testid=earlier-feedback]", "Tighten it").await;
    let comments = browser.texts("[data-testid=earlier-step-comment]").await;
    assert_eq!(
        comments,
        ["server: Cover the error paths", "ui: Add a dark theme"]
    );
    browser.close().await;
}
