//! End to end, as a person uses the dashboard: the real server on a loopback port with a
//! temporary database, the release dashboard, headless Chromium.

#![cfg(not(target_arch = "wasm32"))]

use buildd_core::MissionDetail;
use buildd_testkit::{get_json, send_json, Browser, TestServer};
use fantoccini::Locator;

/// A browser that opened the dashboard link, so it is connected, and shows the missions.
async fn connected(server: &TestServer) -> Browser {
    let browser = Browser::start(1280).await;
    browser.client.goto(&server.link()).await.unwrap();
    browser.wait_for("[data-testid=command-center]").await;
    browser.click("[data-testid=nav-missions]").await;
    browser.wait_for("[data-testid=mission-card]").await;
    browser
}

async fn mission_id(server: &TestServer, title: &str) -> String {
    let (_, list) = get_json(server.addr, "/api/missions", &server.key);
    list["missions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["title"] == title)
        .unwrap_or_else(|| panic!("no mission {title}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_link_connects_and_a_mission_shows_its_progress() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(1280).await;
    let c = &browser.client;

    c.goto(&server.link()).await.unwrap();
    // The link lands on the command center, connected.
    browser.wait_for("[data-testid=command-center]").await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.fragment(), None, "the key leaves the address bar");
    assert!(!url.as_str().contains("bld_"));
    let stored = c
        .execute("return localStorage.getItem('buildd.apiKey')", vec![])
        .await
        .unwrap();
    assert_eq!(stored.as_str(), Some(server.key.as_str()));

    // Every demo mission is listed, in its group.
    browser.click("[data-testid=nav-missions]").await;
    browser.wait_for("[data-testid=mission-card]").await;
    let cards = c
        .find_all(Locator::Css("[data-testid=mission-card]"))
        .await
        .unwrap();
    assert_eq!(cards.len(), 6);
    let running = browser
        .wait_text("[data-testid=group-running]", |t| {
            t.contains("Checkout redesign")
        })
        .await;
    assert!(running.to_lowercase().starts_with("running"), "{running}");
    browser
        .wait_text("[data-testid=group-awaiting-review]", |t| {
            t.contains("Add a health endpoint")
        })
        .await;

    // Open a mission from the list, as a person would.
    c.find(Locator::LinkText("Checkout redesign"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let percent = browser
        .wait_text("[data-testid=progress-percent]", |t| t.ends_with('%'))
        .await;
    let id = mission_id(&server, "Checkout redesign").await;
    let (_, detail) = get_json(server.addr, &format!("/api/missions/{id}"), &server.key);
    let detail: MissionDetail = serde_json::from_value(detail).unwrap();
    assert_eq!(percent, format!("{}%", detail.progress));
    assert_eq!(
        percent, "25%",
        "1 of 4 deliverables merged; the cancelled one does not count"
    );

    let bar = c
        .find(Locator::Css(
            "[data-testid=progress-card] [data-testid=progress-bar]",
        ))
        .await
        .unwrap();
    assert_eq!(
        bar.attr("aria-label").await.unwrap().as_deref(),
        Some(
            format!(
                "{} of {} tasks complete",
                detail.completed_tasks, detail.total_tasks
            )
            .as_str()
        )
    );
    let segments = bar.find_all(Locator::Css(".seg")).await.unwrap();
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
    let subtitle = browser
        .wait_text("[data-testid=progress-subtitle]", |t| !t.is_empty())
        .await;
    assert_eq!(subtitle, "1/4 done · 1 awaiting merge");
    browser
        .wait_text("[data-testid=tasks-running]", |t| {
            t.contains("Add address autocomplete")
        })
        .await;
    browser
        .wait_text("[data-testid=tasks-blocked]", |t| {
            t.contains("Wire analytics events")
        })
        .await;

    // A reload keeps the connection and the page.
    c.refresh().await.unwrap();
    let again = browser
        .wait_text("[data-testid=progress-percent]", |t| t.ends_with('%'))
        .await;
    assert_eq!(again, "25%");
    assert!(c
        .current_url()
        .await
        .unwrap()
        .path()
        .starts_with("/missions/"));

    // A task's own page, from its row.
    c.find(Locator::LinkText("Restyle payment form"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    browser
        .wait_text("[data-testid=task-title]", |t| t == "Restyle payment form")
        .await;
    let pr = browser
        .wait_text("[data-testid=task-pr]", |t| t.starts_with("PR #"))
        .await;
    assert!(pr.ends_with("open"), "{pr}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_key_shows_the_401_message() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(1280).await;
    browser
        .client
        .goto(&server.url("/#key=bld_not_a_real_key"))
        .await
        .unwrap();
    let message = browser
        .wait_text("[data-testid=error]", |t| t.contains("401"))
        .await;
    assert!(message.contains("rejected the API key"), "{message}");
    // The way out is offered.
    browser
        .client
        .find(Locator::LinkText("Connect again"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    browser.wait_for("[data-testid=connect-form]").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_connect_screen_checks_the_key_and_keeps_what_was_typed() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(375).await;
    let c = &browser.client;
    c.goto(&server.url("/")).await.unwrap();
    browser.wait_for("[data-testid=connect-form]").await;
    let input = c
        .find(Locator::Css("[data-testid=key-input]"))
        .await
        .unwrap();
    input.send_keys("bld_wrong").await.unwrap();
    browser.click("[data-testid=connect-submit]").await;
    browser
        .wait_text("[data-testid=connect-error]", |t| t.contains("401"))
        .await;
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
        let overflow = c
            .execute(
                "return document.documentElement.scrollWidth > window.innerWidth",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(overflow.as_bool(), Some(false), "the {page} fits 375 px");
        if let Some(link) = next {
            browser.click(&format!("[data-testid={link}]")).await;
        }
    }

    browser.click("[data-testid=disconnect]").await;
    browser.wait_for("[data-testid=connect-form]").await;
    let stored = c
        .execute("return localStorage.getItem('buildd.apiKey')", vec![])
        .await
        .unwrap();
    assert!(stored.is_null(), "disconnecting forgets the key");
    browser.close().await;
}

const WATCH_FOR_LOADING: &str = r#"
window.__sawLoading = false;
new MutationObserver(() => {
  if (document.querySelector('[data-testid=loading]')) window.__sawLoading = true;
}).observe(document.body, {childList: true, subtree: true});
window.__card = document.querySelector('[data-testid=progress-card]');
"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_mission_page_refreshes_by_itself_without_flicker() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    let c = &browser.client;
    let id = mission_id(&server, "Checkout redesign").await;
    c.goto(&server.url(&format!("/missions/{id}")))
        .await
        .unwrap();
    browser
        .wait_text("[data-testid=progress-percent]", |t| t == "25%")
        .await;
    c.execute(WATCH_FOR_LOADING, vec![]).await.unwrap();

    // Past one refresh with nothing changed: no loading state, the same elements on screen.
    tokio::time::sleep(std::time::Duration::from_millis(6_500)).await;
    let calm = c
        .execute(
            "return [window.__sawLoading, window.__card.isConnected]",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        calm,
        serde_json::json!([false, true]),
        "a refresh with no change re-rendered"
    );

    // A change on the server shows up without a reload: the queued task is cancelled, so
    // 1 of 3 deliverables is done.
    let (_, detail) = get_json(server.addr, &format!("/api/missions/{id}"), &server.key);
    let queued = detail["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"] == "Wire analytics events")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = send_json(
        server.addr,
        "PATCH",
        &format!("/api/tasks/{queued}"),
        &server.key,
        Some(&serde_json::json!({"status": "cancelled"})),
    );
    assert_eq!(status, 200);
    browser
        .wait_text("[data-testid=progress-percent]", |t| t == "33%")
        .await;
    let saw_loading = c
        .execute("return window.__sawLoading", vec![])
        .await
        .unwrap();
    assert_eq!(
        saw_loading,
        serde_json::json!(false),
        "the update did not flash a loading state"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_workspace_filter_lives_in_the_url() {
    let server = TestServer::start_demo().await;
    let (status, ws) = send_json(
        server.addr,
        "POST",
        "/api/workspaces",
        &server.key,
        Some(&serde_json::json!({"name": "billing", "repo": "acme/billing"})),
    );
    assert_eq!(status, 201);
    let ws = ws["workspace"]["id"].as_str().unwrap().to_string();
    let (status, _) = send_json(
        server.addr,
        "POST",
        "/api/missions",
        &server.key,
        Some(&serde_json::json!({"title": "Invoice exports", "workspaceId": ws})),
    );
    assert_eq!(status, 201);

    let browser = connected(&server).await;
    let c = &browser.client;
    let all = c
        .find_all(Locator::Css("[data-testid=mission-card]"))
        .await
        .unwrap();
    assert_eq!(all.len(), 7);

    let select = c
        .find(Locator::Css("[data-testid=workspace-filter]"))
        .await
        .unwrap();
    select.select_by_value(&ws).await.unwrap();
    browser
        .wait_text("[data-testid=active-count]", |t| t == "1 active")
        .await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.query(), Some(format!("workspace={ws}").as_str()));
    let shown = c
        .find_all(Locator::Css("[data-testid=mission-card]"))
        .await
        .unwrap();
    assert_eq!(shown.len(), 1);
    assert!(shown[0].text().await.unwrap().contains("Invoice exports"));

    // The filter is part of the address: a reload keeps it.
    c.refresh().await.unwrap();
    browser
        .wait_text("[data-testid=active-count]", |t| t == "1 active")
        .await;
    let shown = c
        .find_all(Locator::Css("[data-testid=mission-card]"))
        .await
        .unwrap();
    assert_eq!(shown.len(), 1);
    browser.close().await;
}

/// The planning task in review of the demo mission `title`.
fn plan_in_review_of(server: &TestServer, title: &str) -> String {
    let (_, list) = get_json(server.addr, "/api/missions", &server.key);
    let mission = list["missions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["title"] == title)
        .unwrap();
    mission["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["mode"] == "planning" && t["status"] == "completed")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plan_is_reviewed_and_approved_from_its_task_page() {
    let server = TestServer::start_demo().await;
    let plan = plan_in_review_of(&server, "Add a health endpoint");
    let browser = Browser::start(1280).await;
    let c = &browser.client;
    c.goto(&server.link()).await.unwrap();
    browser.wait_for("[data-testid=command-center]").await;
    browser.click("[data-testid=nav-missions]").await;
    // The mission card leads to the plan.
    let link = browser.wait_for("[data-testid=plan-review-link]").await;
    assert_eq!(link.text().await.unwrap(), "A plan waits for your review →");
    link.click().await.unwrap();
    browser.wait_for("[data-testid=plan-review]").await;
    assert!(c.current_url().await.unwrap().path().ends_with(&plan));
    let steps = c
        .find_all(Locator::Css("[data-testid=plan-step]"))
        .await
        .unwrap();
    assert_eq!(steps.len(), 3);
    let ready = browser
        .wait_text("[data-testid=plan-dispatchable]", |t| !t.is_empty())
        .await;
    assert_eq!(
        ready,
        "3 steps · 1 can start as soon as the plan is approved"
    );
    let waves = c
        .find(Locator::Css("[data-testid=plan-waves]"))
        .await
        .unwrap();
    assert_eq!(
        waves.attr("aria-label").await.unwrap().as_deref(),
        Some("3 steps in 2 waves; 1 can start at once")
    );

    browser.click("[data-testid=approve-plan]").await;
    let done = browser
        .wait_text("[data-testid=plan-approved]", |t| !t.is_empty())
        .await;
    assert!(
        done.starts_with("Plan approved — 3 child tasks created"),
        "{done}"
    );
    browser
        .wait_text("[data-testid=plan-banner]", |t| {
            t == "Plan approved — 3 child tasks created"
        })
        .await;
    let (_, tasks) = get_json(server.addr, "/api/tasks?status=pending", &server.key);
    let children = tasks["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["parentTaskId"] == plan.as_str())
        .count();
    assert_eq!(children, 3);

    // Another plan, reached without reloading the page, starts afresh.
    let other = new_mission(&server, "Rate limits");
    let planning = organizer_run(&server, &other);
    server.complete_with_output(
        &planning,
        serde_json::json!({"plan": [{"ref": "a", "title": "Add the limiter", "description": "d"}],
                           "summary": "One step.", "missionComplete": false}),
    );
    c.execute(
        "history.pushState({}, '', arguments[0]); dispatchEvent(new PopStateEvent('popstate'));",
        vec![format!("/tasks/{planning}").into()],
    )
    .await
    .unwrap();
    browser
        .wait_text("[data-testid=plan-review] .card__title", |t| {
            t == "Plan in review"
        })
        .await;
    browser.wait_for("[data-testid=approve-plan]").await;
    assert!(c
        .find_all(Locator::Css("[data-testid=plan-approved]"))
        .await
        .unwrap()
        .is_empty());

    // The mission now lists the children; the plan is no longer in review.
    let mission = mission_id(&server, "Add a health endpoint").await;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    browser.wait_for("[data-testid=progress-card]").await;
    let waiting = c
        .find_all(Locator::Css("[data-testid=plan-awaiting-review]"))
        .await
        .unwrap();
    assert!(
        waiting.is_empty(),
        "an approved plan no longer waits on the mission page"
    );
    browser
        .wait_text("[data-testid=tasks-queued]", |t| {
            t.contains("Add GET /healthz")
        })
        .await;
    browser
        .wait_text("[data-testid=tasks-blocked]", |t| {
            t.contains("Document /healthz")
        })
        .await;
    let waiting = browser
        .wait_text(
            "[data-testid=tasks-blocked] [data-testid=waiting-on]",
            |t| !t.is_empty(),
        )
        .await;
    assert_eq!(waiting, "waiting on Add GET /healthz");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rejected_plan_leads_to_its_revision_and_keeps_feedback_on_failure() {
    let server = TestServer::start_demo().await;
    let plan = plan_in_review_of(&server, "Add a health endpoint");
    let browser = connected(&server).await;
    let c = &browser.client;
    // The mission page says a plan waits, and leads to it.
    let mission = mission_id(&server, "Add a health endpoint").await;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let waiting = browser
        .wait_text("[data-testid=plan-awaiting-review]", |t| !t.is_empty())
        .await;
    assert!(
        waiting.contains("Mission: Add a health endpoint finished planning"),
        "{waiting}"
    );
    c.find(Locator::LinkText("Review the plan"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    browser.wait_for("[data-testid=plan-review]").await;
    browser.click("[data-testid=reject-plan]").await;

    // An empty submission is refused in place.
    browser.click("[data-testid=send-feedback]").await;
    browser
        .wait_text("[data-testid=plan-error]", |t| {
            t.starts_with("Feedback is required")
        })
        .await;

    // The server refuses (someone approved meanwhile): the typed feedback stays.
    let (status, _) = send_json(
        server.addr,
        "POST",
        &format!("/api/tasks/{plan}/approve-plan"),
        &server.key,
        None,
    );
    assert_eq!(status, 200);
    let feedback = c
        .find(Locator::Css("[data-testid=reject-feedback]"))
        .await
        .unwrap();
    feedback.send_keys("Check the database too").await.unwrap();
    browser.click("[data-testid=send-feedback]").await;
    browser
        .wait_text("[data-testid=plan-error]", |t| t == "Plan already approved")
        .await;
    let kept = browser.value("[data-testid=reject-feedback]").await;
    assert_eq!(kept.as_deref(), Some("Check the database too"));
    browser.close().await;

    // A plan still in review: rejecting lands on the revision.
    let mission = new_mission(&server, "Rate limits");
    let planning = organizer_run(&server, &mission);
    server.complete_with_output(
        &planning,
        serde_json::json!({
            "plan": [{"ref": "limit", "title": "Add a rate limiter", "description": "Token bucket per key."}],
            "summary": "One step.", "missionComplete": false
        }),
    );
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/tasks/{planning}")))
        .await
        .unwrap();
    browser.wait_for("[data-testid=plan-review]").await;
    browser.click("[data-testid=reject-plan]").await;
    let feedback = c
        .find(Locator::Css("[data-testid=reject-feedback]"))
        .await
        .unwrap();
    feedback.send_keys("  Split per endpoint.  ").await.unwrap();
    browser.click("[data-testid=send-feedback]").await;
    let title = browser
        .wait_text("[data-testid=task-title]", |t| t.ends_with("(revised)"))
        .await;
    assert_eq!(title, "Mission: Rate limits (revised)");
    let url = c.current_url().await.unwrap();
    let revision = url.path().trim_start_matches("/tasks/").to_string();
    let (_, r) = get_json(server.addr, &format!("/api/tasks/{revision}"), &server.key);
    assert_eq!(r["context"]["planFeedback"], "Split per endpoint.");
    let banner = browser
        .wait_text("[data-testid=plan-banner]", |t| !t.is_empty())
        .await;
    assert!(banner.starts_with("Waiting for a worker"), "{banner}");
    let origin = browser
        .wait_text("[data-testid=plan-revision-of]", |t| !t.is_empty())
        .await;
    assert_eq!(
        origin,
        "Revision of the rejected plan, after the feedback: “Split per endpoint.”"
    );

    // The rejected plan says so, and leads to its revision.
    c.find(Locator::LinkText("the rejected plan"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    browser
        .wait_text("[data-testid=plan-banner]", |t| {
            t.starts_with("Plan rejected with feedback: “Split per endpoint.”")
        })
        .await;
    assert!(c
        .find_all(Locator::Css("[data-testid=plan-review]"))
        .await
        .unwrap()
        .is_empty());
    browser.click("[data-testid=plan-revision-link]").await;
    browser
        .wait_text("[data-testid=task-title]", |t| t.ends_with("(revised)"))
        .await;
    assert!(c.current_url().await.unwrap().path().ends_with(&revision));
    browser.close().await;
}

fn mission_workspace(server: &TestServer) -> String {
    let (_, ws) = get_json(server.addr, "/api/workspaces", &server.key);
    ws["workspaces"][0]["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_running_agent_is_messaged_from_its_task_page() {
    let server = TestServer::start_demo().await;
    let (_, created) = send_json(
        server.addr,
        "POST",
        "/api/tasks",
        &server.key,
        Some(
            &serde_json::json!({"title": "Tidy the cart", "workspaceId": mission_workspace(&server)}),
        ),
    );
    let task = created["id"].as_str().unwrap().to_string();
    let worker = server.claim(&task);
    server.report(&worker, serde_json::json!({"status": "running"}));

    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/tasks/{task}")))
        .await
        .unwrap();
    browser.wait_for("[data-testid=message-agent]").await;

    // Nothing to send is refused in place.
    browser.click("[data-testid=agent-message-send]").await;
    browser
        .wait_text("[data-testid=agent-message-error]", |t| {
            t == "Write a message first."
        })
        .await;

    // A message the server refuses stays in the box, with the server's reason.
    let too_long = "x".repeat(4001);
    browser
        .fill("[data-testid=agent-message-input]", &too_long)
        .await;
    browser.click("[data-testid=agent-message-send]").await;
    browser
        .wait_text("[data-testid=agent-message-error]", |t| {
            t == "message must be at most 4000 characters"
        })
        .await;
    assert_eq!(
        browser
            .value("[data-testid=agent-message-input]")
            .await
            .map(|v| v.len()),
        Some(4001)
    );

    // A message that goes through joins the history, delivered with the next report.
    browser.fill("[data-testid=agent-message-input]", "").await;
    c.find(Locator::Css("[data-testid=agent-message-input]"))
        .await
        .unwrap()
        .send_keys("Keep the old cart API working")
        .await
        .unwrap();
    browser.click("[data-testid=agent-message-send]").await;
    let entry = browser
        .wait_text("[data-testid=agent-message]", |t| {
            t.contains("Keep the old cart API working")
        })
        .await;
    assert!(
        entry.contains("waiting for the agent's next update"),
        "{entry}"
    );
    assert_eq!(
        browser
            .value("[data-testid=agent-message-input]")
            .await
            .as_deref(),
        Some("")
    );
    let answer = server.report(
        &worker,
        serde_json::json!({"currentAction": "Editing cart.rs"}),
    );
    assert_eq!(answer["instructions"], "Keep the old cart API working");
    browser
        .wait_text("[data-testid=agent-message]", |t| t.contains("delivered"))
        .await;

    // Once the agent has finished, the history stays and the box goes.
    server.report(
        &worker,
        serde_json::json!({"status": "completed", "summary": "Tidied"}),
    );
    browser
        .wait_text("[data-testid=task-summary]", |t| t == "Tidied")
        .await;
    assert!(c
        .find_all(Locator::Css("[data-testid=agent-message-input]"))
        .await
        .unwrap()
        .is_empty());
    browser.wait_for("[data-testid=agent-message]").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_planning_run_shows_where_it_is_and_why_it_failed() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Audit logs");
    let planning = organizer_run(&server, &mission);
    let browser = connected(&server).await;
    browser
        .client
        .goto(&server.url(&format!("/tasks/{planning}")))
        .await
        .unwrap();
    browser
        .wait_text("[data-testid=plan-banner]", |t| {
            t.starts_with("Waiting for a worker")
        })
        .await;
    let worker = server.claim(&planning);
    server.report(&worker, serde_json::json!({"status": "running"}));
    browser
        .wait_text("[data-testid=plan-banner]", |t| {
            t == "Agent is generating a plan…"
        })
        .await;
    // The run in a line: its state and branch.
    let run = browser
        .wait_text("[data-testid=task-run]", |t| t.starts_with("Run: running"))
        .await;
    assert!(run.contains("· branch "), "{run}");
    server.report(
        &worker,
        serde_json::json!({"status": "completed", "summary": "Here is my plan in prose."}),
    );
    browser
        .wait_text("[data-testid=plan-banner]", |t| {
            t == "Planning failed: the plan was not returned as validated JSON, so no child tasks could be created"
        })
        .await;
    // The result says why, beside what the agent wrote.
    browser
        .wait_text("[data-testid=task-error]", |t| {
            t == "Failed: the plan was not returned as validated JSON, so no child tasks could be created"
        })
        .await;
    browser
        .wait_text("[data-testid=task-summary]", |t| {
            t == "Here is my plan in prose."
        })
        .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_task_says_why_and_runs_again_with_what_it_blocked() {
    let server = TestServer::start_demo().await;
    let mission = mission_id(&server, "Stabilise flaky CI").await;
    let (_, detail) = get_json(
        server.addr,
        &format!("/api/missions/{mission}"),
        &server.key,
    );
    let failed = detail["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["status"] == "failed" && t["title"] == "Fix race in inventory test")
        .expect("the demo's failed task")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let browser = connected(&server).await;
    browser
        .client
        .goto(&server.url(&format!("/tasks/{failed}")))
        .await
        .unwrap();
    let why = browser
        .wait_text("[data-testid=task-error]", |t| t.starts_with("Failed: "))
        .await;
    browser.click("[data-testid=retry-task]").await;
    browser
        .wait_text("[data-testid=task-last-error]", |t| {
            t == format!(
                "The last run failed: {}",
                why.trim_start_matches("Failed: ")
            )
        })
        .await;
    let (_, task) = get_json(server.addr, &format!("/api/tasks/{failed}"), &server.key);
    assert_eq!(task["status"], "pending");
    assert!(browser
        .client
        .find_all(Locator::Css("[data-testid=retry-task]"))
        .await
        .unwrap()
        .is_empty());
    browser.close().await;
}

/// The organizer run in flight for `mission` (Run answers with it, new or deduped).
fn organizer_run(server: &TestServer, mission: &str) -> String {
    let (status, run) = send_json(
        server.addr,
        "POST",
        &format!("/api/missions/{mission}/run"),
        &server.key,
        None,
    );
    assert!(status == 200 || status == 201, "{run}");
    run["task"]["id"].as_str().unwrap().to_string()
}

/// A new auto mission of the demo workspace, created over the API; its id.
fn new_mission(server: &TestServer, title: &str) -> String {
    let (status, created) = send_json(
        server.addr,
        "POST",
        "/api/missions",
        &server.key,
        Some(&serde_json::json!({"title": title, "workspaceId": mission_workspace(server)})),
    );
    assert_eq!(status, 201, "{created}");
    created["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_organizer_checklist_is_edited_and_kept_when_a_save_fails() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Keep production healthy");
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let shown = browser
        .wait_text("[data-testid=checklist] [data-testid=markdown]", |t| {
            !t.is_empty()
        })
        .await;
    assert!(
        shown.starts_with("Assess which phase the mission is in"),
        "{shown}"
    );

    // A save the server refuses keeps the text and says why.
    browser.click("[data-testid=edit-checklist]").await;
    let too_long = "- [ ] x\n".repeat(1001);
    browser
        .fill("[data-testid=checklist-input]", &too_long)
        .await;
    let count = browser
        .wait_text("[data-testid=checklist-count]", |t| t.starts_with("8008"))
        .await;
    assert_eq!(count, "8008 / 8000 characters");
    browser.click("[data-testid=save-checklist]").await;
    let error = browser
        .wait_text("[data-testid=checklist-error]", |t| !t.is_empty())
        .await;
    assert!(
        error.starts_with("Not saved: heartbeatChecklist must be at most 8000 characters"),
        "{error}"
    );
    assert_eq!(
        browser
            .value("[data-testid=checklist-input]")
            .await
            .map(|v| v.len()),
        Some(too_long.len())
    );

    // Leaving with unsaved text asks first; staying keeps it.
    c.find(Locator::LinkText("Missions"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let question = c.get_alert_text().await.unwrap();
    assert_eq!(
        question,
        "You have unsaved changes. Leave without saving them?"
    );
    c.dismiss_alert().await.unwrap();
    assert!(c.current_url().await.unwrap().path().ends_with(&mission));

    // A good save shows the new checklist, also after a reload.
    browser
        .fill(
            "[data-testid=checklist-input]",
            "- [ ] API p99 under **200 ms**\n- [x] No `5xx` spike <b>now</b>",
        )
        .await;
    browser.click("[data-testid=save-checklist]").await;
    browser
        .wait_text("[data-testid=checklist] [data-testid=markdown]", |t| {
            t.contains("API p99 under 200 ms")
        })
        .await;
    c.refresh().await.unwrap();
    let shown = browser
        .wait_text("[data-testid=checklist] [data-testid=markdown]", |t| {
            !t.is_empty()
        })
        .await;
    assert_eq!(shown, "API p99 under 200 ms\nNo 5xx spike <b>now</b>");
    let bold = c
        .find(Locator::Css(
            "[data-testid=checklist] [data-testid=markdown] strong",
        ))
        .await
        .unwrap();
    assert_eq!(bold.text().await.unwrap(), "200 ms");
    assert!(c
        .find_all(Locator::Css("[data-testid=markdown] b"))
        .await
        .unwrap()
        .is_empty());
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn active_hours_and_check_ins_show_on_the_mission_page() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Nightly export");
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let sentence = browser
        .wait_text("[data-testid=hours-sentence]", |t| !t.is_empty())
        .await;
    assert_eq!(sentence, "Check-ins may run at any hour.");

    browser.click("[data-testid=edit-hours]").await;
    browser.click("[data-testid=hours-enabled]").await;
    for select in ["hours-start", "hours-end"] {
        browser.fill(&format!("[data-testid={select}]"), "22").await;
    }
    browser.click("[data-testid=save-hours]").await;
    browser
        .wait_text("[data-testid=hours-error]", |t| {
            t == "Start and end must differ: the window would be empty."
        })
        .await;
    browser.fill("[data-testid=hours-end]", "6").await;
    browser
        .fill("[data-testid=hours-zone]", "Europe/Paris")
        .await;
    let preview = browser
        .wait_text("[data-testid=hours-preview]", |t| {
            t.contains("Europe/Paris")
        })
        .await;
    assert_eq!(
        preview,
        "Check-ins run between 22:00 and 06:00 Europe/Paris (overnight); outside these hours they wait."
    );
    browser.click("[data-testid=save-hours]").await;
    browser
        .wait_text("[data-testid=hours-sentence]", |t| {
            t.contains("22:00 and 06:00")
        })
        .await;
    let next = browser
        .wait_text("[data-testid=next-check-in]", |t| !t.is_empty())
        .await;
    assert!(next.starts_with("Next check-in may run in "), "{next}");
    let m = get_json(
        server.addr,
        &format!("/api/missions/{mission}"),
        &server.key,
    )
    .1;
    assert_eq!(
        m["checkIns"]["activeHours"],
        serde_json::json!({"start": 22, "end": 6, "timezone": "Europe/Paris"})
    );

    // A check-in tick while the organizer is still planning: the timeline says why it waited.
    c.execute(
        "const s = document.querySelector('[data-testid=edit-hours]'); s.click();",
        vec![],
    )
    .await
    .unwrap();
    browser.click("[data-testid=hours-enabled]").await;
    browser.click("[data-testid=save-hours]").await;
    browser
        .wait_text("[data-testid=hours-sentence]", |t| {
            t == "Check-ins may run at any hour."
        })
        .await;
    let later = chrono::Utc::now() + chrono::Duration::minutes(61);
    let ran = buildd_server::scheduler::tick(&server.db, later, &Default::default())
        .await
        .unwrap();
    assert!(ran >= 1, "the mission's check-in was due");
    browser
        .wait_text("[data-testid=runs-timeline]", |t| {
            t.contains("Check-in · deferred: the organizer is planning")
        })
        .await;
    let status = browser
        .wait_text("[data-testid=last-check-in]", |t| !t.is_empty())
        .await;
    assert!(
        status.ends_with("deferred: the organizer is planning"),
        "{status}"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_switched_to_human_shows_its_effective_policy() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Payments hardening");
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let effective = browser
        .wait_text("[data-testid=effective-policy]", |t| !t.is_empty())
        .await;
    assert_eq!(effective, "Auto-threshold — the built-in default");

    // A value the server refuses is shown at its field.
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=policy-override]").await;
    c.find(Locator::Css("[data-testid=policy-max-lines]"))
        .await
        .unwrap()
        .send_keys("-3")
        .await
        .unwrap();
    browser.click("[data-testid=save-policy]").await;
    let error = browser
        .wait_text("[data-testid=policy-error-threshold]", |t| !t.is_empty())
        .await;
    assert_eq!(error, "threshold.maxLines: must be a positive integer");

    browser.fill("[data-testid=policy-tier]", "human").await;
    browser.click("[data-testid=save-policy]").await;
    browser
        .wait_text("[data-testid=effective-policy]", |t| {
            t == "Human — set on this mission"
        })
        .await;
    let m = get_json(
        server.addr,
        &format!("/api/missions/{mission}"),
        &server.key,
    )
    .1;
    assert_eq!(m["mergePolicy"], serde_json::json!({"tier": "human"}));

    // Reset to inherited.
    browser.click("[data-testid=edit-policy]").await;
    browser.click("[data-testid=reset-policy]").await;
    browser
        .wait_text("[data-testid=effective-policy]", |t| {
            t == "Auto-threshold — the built-in default"
        })
        .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dormant_mission_is_closed_through_the_confirmation() {
    let server = TestServer::start_demo().await;
    let (_, created) = send_json(
        server.addr,
        "POST",
        "/api/missions",
        &server.key,
        Some(
            &serde_json::json!({"title": "Audit access", "workspaceId": mission_workspace(&server),
                                 "requiresReview": true, "isHeartbeat": false}),
        ),
    );
    let mission = created["id"].as_str().unwrap().to_string();
    let (_, task) = send_json(
        server.addr,
        "POST",
        "/api/tasks",
        &server.key,
        Some(
            &serde_json::json!({"title": "Review the access list", "workspaceId": mission_workspace(&server), "missionId": mission}),
        ),
    );
    let worker = server.claim(task["id"].as_str().unwrap());
    server.report(
        &worker,
        serde_json::json!({"status": "completed", "summary": "Reviewed"}),
    );

    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let banner = browser
        .wait_text("[data-testid=close-mission] .card__title", |t| {
            !t.is_empty()
        })
        .await;
    assert_eq!(
        banner,
        "All work is done — this mission needs your review to close"
    );
    let outcome = browser
        .wait_text("[data-testid=mission-outcome]", |t| !t.is_empty())
        .await;
    assert_eq!(
        outcome,
        "PRs: 0 merged, 0 open · tasks: 1 completed, 0 failed"
    );
    browser.click("[data-testid=close-mission-button]").await;
    browser.wait_for("[data-testid=close-confirm]").await;
    assert!(c
        .find_all(Locator::Css("[data-testid=close-warning]"))
        .await
        .unwrap()
        .is_empty());
    browser.click("[data-testid=confirm-close]").await;
    browser
        .wait_text("[data-testid=state-chip]", |t| {
            t.eq_ignore_ascii_case("completed")
        })
        .await;
    assert!(
        c.find_all(Locator::Css("[data-testid=mission-status]"))
            .await
            .unwrap()
            .is_empty(),
        "the state chip says it once"
    );
    browser
        .wait_text("[data-testid=organizer-mode]", |t| {
            t == "Closed: the organizer no longer plans for this mission."
        })
        .await;
    assert!(
        c.find_all(Locator::Css("[data-testid=run-organizer]"))
            .await
            .unwrap()
            .is_empty(),
        "a closed mission offers no Run"
    );
    let m = get_json(
        server.addr,
        &format!("/api/missions/{mission}"),
        &server.key,
    )
    .1;
    assert_eq!(m["status"], "completed");
    assert_eq!(m["progress"], 100);
    assert_eq!(m["checkIns"]["enabled"], false);
    assert!(c
        .find_all(Locator::Css("[data-testid=close-mission]"))
        .await
        .unwrap()
        .is_empty());
    browser.close().await;
}

/// A task of `mission` completed over the worker protocol with PR `number` of `files`, and a
/// passing CI run for its head commit.
fn task_with_green_pr(server: &TestServer, mission: &str, number: i64, files: serde_json::Value) {
    let (_, task) = send_json(
        server.addr,
        "POST",
        "/api/tasks",
        &server.key,
        Some(
            &serde_json::json!({"title": format!("Change {number}"), "workspaceId": mission_workspace(server), "missionId": mission}),
        ),
    );
    let worker = server.claim(task["id"].as_str().unwrap());
    server.report(
        &worker,
        serde_json::json!({"status": "completed", "prNumber": number, "prUrl": format!("https://github.com/acme/storefront/pull/{number}"),
                           "baseBranch": "main", "headSha": "feedface00", "files": files}),
    );
    let (status, body) = send_json(
        server.addr,
        "POST",
        &format!("/api/prs/{number}/checks"),
        &server.worker_key,
        Some(
            &serde_json::json!({"workspaceId": mission_workspace(server), "headSha": "feedface00",
                                 "name": "test", "status": "completed", "conclusion": "success"}),
        ),
    );
    assert_eq!(status, 201, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_held_pr_shows_its_contract_reason_and_a_person_merges_it() {
    let server = TestServer::start_demo().await;
    let (_, created) = send_json(
        server.addr,
        "POST",
        "/api/missions",
        &server.key,
        Some(
            &serde_json::json!({"title": "User cleanup", "workspaceId": mission_workspace(&server),
                                 "requiresReview": true, "orchestrationMode": "manual"}),
        ),
    );
    let mission = created["id"].as_str().unwrap().to_string();
    task_with_green_pr(
        &server,
        &mission,
        501,
        serde_json::json!([{"path": "migrations/0007_drop.sql", "status": "added", "additions": 1, "deletions": 0,
                            "patch": "+ALTER TABLE users DROP COLUMN legacy;"}]),
    );
    task_with_green_pr(
        &server,
        &mission,
        502,
        serde_json::json!([{"path": "src/users.rs", "status": "modified", "additions": 12, "deletions": 3, "patch": "+x"}]),
    );

    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let held = browser
        .wait_text("[data-pr='501'] [data-testid=pr-reason]", |t| !t.is_empty())
        .await;
    assert_eq!(
        held,
        "migration: migrations/0007_drop.sql: drops column users.legacy"
    );
    let verdicts = browser
        .wait_text("[data-pr='501'] [data-testid=migration-verdicts]", |t| {
            !t.is_empty()
        })
        .await;
    assert!(verdicts.contains("CONTRACT"), "{verdicts}");
    // What holds it is what a person reviews; they may merge it once CI passed.
    assert_eq!(
        c.find_all(Locator::Css("[data-pr='501'] [data-testid=merge-pr]"))
            .await
            .unwrap()
            .len(),
        1
    );

    let reason = browser
        .wait_text("[data-pr='502'] [data-testid=pr-reason]", |t| !t.is_empty())
        .await;
    assert_eq!(
        reason,
        "Human — this mission requires review: a person merges this PR"
    );
    // Merging past a rail says so; merging what only the tier holds does not.
    browser
        .click("[data-pr='501'] [data-testid=merge-pr]")
        .await;
    let warning = browser
        .wait_text("[data-pr='501'] [data-testid=merge-warning]", |t| {
            !t.is_empty()
        })
        .await;
    assert_eq!(warning, "You merge past what holds it, listed above.");
    browser
        .click("[data-pr='502'] [data-testid=merge-pr]")
        .await;
    browser
        .wait_text("[data-pr='502'] [data-testid=merge-confirm]", |t| {
            !t.is_empty()
        })
        .await;
    assert!(c
        .find_all(Locator::Css("[data-pr='502'] [data-testid=merge-warning]"))
        .await
        .unwrap()
        .is_empty());
    browser
        .click("[data-pr='502'] [data-testid=confirm-merge]")
        .await;
    browser
        .wait_text("[data-pr='502'] [data-testid=pr-state]", |t| {
            t.eq_ignore_ascii_case("merged")
        })
        .await;
    let (_, prs) = get_json(
        server.addr,
        &format!("/api/prs?missionId={mission}"),
        &server.key,
    );
    let merged = prs["prs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["number"] == 502)
        .unwrap();
    assert_eq!(merged["state"], "merged");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_feed_shows_questions_and_takes_guidance_and_answers() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Caching layer");
    let post = |key: &str, body: serde_json::Value| {
        send_json(
            server.addr,
            "POST",
            &format!("/api/missions/{mission}/notes"),
            key,
            Some(&body),
        )
    };
    let (status, _) = post(
        &server.worker_key,
        serde_json::json!({"type": "question", "title": "Which cache?", "defaultChoice": "in-process",
                           "options": ["redis", "in-process"],
                           "bodyText": "Pick **one**. <img src=x onerror=alert(1)>"}),
    );
    assert_eq!(status, 201);
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}?tab=feed")))
        .await
        .unwrap();
    let question = browser
        .wait_text("[data-testid=note]", |t| t.contains("Which cache?"))
        .await;
    assert!(question.contains("Default: in-process"), "{question}");
    assert!(
        question.contains("Options: redis · in-process"),
        "{question}"
    );
    assert!(
        question.contains("<img src=x onerror=alert(1)>"),
        "raw HTML stays text: {question}"
    );
    assert!(c
        .find_all(Locator::Css("[data-testid=feed] img"))
        .await
        .unwrap()
        .is_empty());

    // A refused note keeps its text and says why.
    let long = "x".repeat(501);
    browser.fill("[data-testid=guidance-input]", &long).await;
    browser.click("[data-testid=send-guidance]").await;
    browser
        .wait_text("[data-testid=guidance-error]", |t| {
            t == "Not sent: title must be at most 500 characters"
        })
        .await;
    assert_eq!(
        browser
            .value("[data-testid=guidance-input]")
            .await
            .map(|v| v.len()),
        Some(501)
    );

    // Guidance is Markdown: bold, code and web addresses read as such, nothing else.
    browser
        .fill(
            "[data-testid=guidance-input]",
            "Keep **Stripe** and `PayPal` working; see https://example.com/spec.",
        )
        .await;
    browser.click("[data-testid=send-guidance]").await;
    let sent = browser
        .wait_text("[data-testid=note]", |t| t.contains("Keep Stripe"))
        .await;
    assert!(
        sent.contains("Keep Stripe and PayPal working; see https://example.com/spec."),
        "{sent}"
    );
    let link = c
        .find(Locator::Css(
            "[data-testid=note] a[href='https://example.com/spec']",
        ))
        .await
        .unwrap();
    assert_eq!(
        link.attr("rel").await.unwrap().as_deref(),
        Some("noopener noreferrer")
    );
    let mut guidance = None;
    for note in c
        .find_all(Locator::Css("[data-testid=note]"))
        .await
        .unwrap()
    {
        if note.text().await.unwrap().contains("Keep Stripe") {
            guidance = Some(note);
        }
    }
    let guidance = guidance.expect("the guidance note");
    let part = |css: &'static str| {
        let guidance = guidance.clone();
        async move {
            guidance
                .find(Locator::Css(css))
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    assert_eq!(part("strong").await, "Stripe");
    assert_eq!(part("code").await, "PayPal");

    // Answering the question marks it answered and plans the mission again.
    browser.click("[data-testid=reply]").await;
    c.find(Locator::Css("[data-testid=reply-input]"))
        .await
        .unwrap()
        .send_keys("Redis")
        .await
        .unwrap();
    browser.click("[data-testid=send-reply]").await;
    browser
        .wait_text("[data-testid=note]", |t| {
            t.starts_with("REPLY") && t.contains("Redis")
        })
        .await;
    let (_, page) = get_json(
        server.addr,
        &format!("/api/missions/{mission}/notes?type=question"),
        &server.key,
    );
    assert_eq!(page["notes"][0]["status"], "answered");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_command_center_splits_planning_from_execution_and_lists_what_waits_on_you() {
    let server = TestServer::start_demo().await;
    // A mission whose plan was approved: its tasks are filed, none picked up yet.
    let mission = new_mission(&server, "Rate limits");
    let planning = organizer_run(&server, &mission);
    server.complete_with_output(
        &planning,
        serde_json::json!({"plan": [{"ref": "a", "title": "Add the limiter", "description": "d"},
                                    {"ref": "b", "title": "Document limits", "description": "d", "dependsOn": ["a"]}],
                           "summary": "Two steps.", "missionComplete": false}),
    );
    let (status, _) = send_json(
        server.addr,
        "POST",
        &format!("/api/tasks/{planning}/approve-plan"),
        &server.key,
        None,
    );
    assert_eq!(status, 200);
    let (status, _) = send_json(
        server.addr,
        "POST",
        &format!("/api/missions/{mission}/notes"),
        &server.worker_key,
        Some(
            &serde_json::json!({"type": "question", "title": "Per key or per IP?", "defaultChoice": "per key"}),
        ),
    );
    assert_eq!(status, 201);

    let browser = connected(&server).await;
    let c = &browser.client;
    browser.click("[data-testid=nav-command]").await;
    let waiting = browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            t.contains("Per key or per IP?")
        })
        .await;
    assert!(
        waiting.contains("Review the plan of Add a health endpoint"),
        "{waiting}"
    );
    assert!(
        waiting.contains("Stabilise flaky CI: 1 task failed and nothing is queued"),
        "the demo's failed work, which nothing will retry: {waiting}"
    );
    assert!(waiting.starts_with("Waiting on you (3)"), "{waiting}");
    assert_eq!(c.title().await.unwrap(), "(3) Buildd Mission Control");
    let planning_rows = browser
        .wait_text("[data-testid=planning-missions]", |t| {
            t.contains("Add a health endpoint")
        })
        .await;
    assert!(!planning_rows.contains("Rate limits"), "{planning_rows}");
    let execution = c
        .find(Locator::Css("[data-testid=execution-missions]"))
        .await
        .unwrap();
    let strip = execution
        .find(Locator::XPath(
            ".//li[.//a[text()='Rate limits']]//*[@data-testid='step-strip']",
        ))
        .await
        .unwrap();
    assert_eq!(
        strip.attr("aria-label").await.unwrap().as_deref(),
        Some("Step 3 of 5: FILE")
    );

    // A mission worked with a person says so; the mode filter lives in the URL.
    let (status, _) = send_json(
        server.addr,
        "PATCH",
        &format!("/api/missions/{mission}"),
        &server.key,
        Some(&serde_json::json!({"mode": "interactive"})),
    );
    assert_eq!(status, 200);
    c.goto(&server.url("/?mode=interactive")).await.unwrap();
    let only = browser
        .wait_text("[data-testid=execution-missions]", |t| {
            t.contains("Rate limits")
        })
        .await;
    assert!(only.to_lowercase().contains("interactive"), "{only}");
    let planning_rows = browser
        .wait_text("[data-testid=planning-missions]", |t| !t.is_empty())
        .await;
    assert_eq!(planning_rows, "Planning\nNone.");

    // The step filter lives in the URL.
    c.goto(&server.url("/?step=3")).await.unwrap();
    browser
        .wait_text("[data-testid=execution-missions]", |t| {
            t.contains("Rate limits")
        })
        .await;
    let planning_rows = browser
        .wait_text("[data-testid=planning-missions]", |t| !t.is_empty())
        .await;
    assert_eq!(planning_rows, "Planning\nNone.");

    // j selects the first mission shown, Enter opens it.
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("j")
        .await
        .unwrap();
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E007}")
        .await
        .unwrap();
    browser
        .wait_text("[data-testid=mission-title]", |t| t == "Rate limits")
        .await;

    // The nav counts what waits on you from every page, and follows the answers.
    let count = browser
        .wait_text("[data-testid=nav-waiting-count]", |t| !t.is_empty())
        .await;
    assert_eq!(count, "3");
    let (_, questions) = get_json(
        server.addr,
        &format!("/api/missions/{mission}/notes?type=question"),
        &server.key,
    );
    let question = questions["notes"][0]["id"].as_str().unwrap().to_string();
    let (status, _) = send_json(
        server.addr,
        "POST",
        &format!("/api/missions/{mission}/notes/{question}/reply"),
        &server.key,
        Some(&serde_json::json!({"title": "Per key"})),
    );
    assert_eq!(status, 201);
    browser
        .wait_text("[data-testid=nav-waiting-count]", |t| t == "2")
        .await;
    assert_eq!(c.title().await.unwrap(), "(2) Buildd Mission Control");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_feed_reads_older_notes_on_request() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Long-running mission");
    for i in 1..=60 {
        let (status, _) = send_json(
            server.addr,
            "POST",
            &format!("/api/missions/{mission}/notes"),
            &server.worker_key,
            Some(&serde_json::json!({"type": "update", "title": format!("Update {i}")})),
        );
        assert_eq!(status, 201);
    }
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}?tab=feed")))
        .await
        .unwrap();
    browser
        .wait_text("[data-testid=note]", |t| t.contains("Update 60"))
        .await;
    let notes = |c: &fantoccini::Client| {
        let c = c.clone();
        async move {
            let mut titles = vec![];
            for n in c
                .find_all(Locator::Css("[data-testid=note] .note__title"))
                .await
                .unwrap()
            {
                titles.push(n.text().await.unwrap());
            }
            titles
        }
    };
    let first = notes(c).await;
    assert_eq!(first.len(), 50);
    assert_eq!(first.last().map(String::as_str), Some("Update 11"));
    browser.click("[data-testid=older-notes]").await;
    browser
        .wait_text("[data-testid=feed]", |t| {
            t.contains("Update 1\n") || t.ends_with("Update 1")
        })
        .await;
    let all = notes(c).await;
    assert_eq!(all.len(), 60);
    let expected: Vec<String> = (1..=60).rev().map(|i| format!("Update {i}")).collect();
    assert_eq!(all, expected);
    assert!(
        c.find_all(Locator::Css("[data-testid=older-notes]"))
            .await
            .unwrap()
            .is_empty(),
        "nothing older is left to read"
    );

    // New notes push the newest page on; what slides out of it stays on screen.
    for i in 61..=63 {
        let (status, _) = send_json(
            server.addr,
            "POST",
            &format!("/api/missions/{mission}/notes"),
            &server.worker_key,
            Some(&serde_json::json!({"type": "update", "title": format!("Update {i}")})),
        );
        assert_eq!(status, 201);
    }
    browser
        .wait_text("[data-testid=note]", |t| t.contains("Update 63"))
        .await;
    let expected: Vec<String> = (1..=63).rev().map(|i| format!("Update {i}")).collect();
    assert_eq!(notes(c).await, expected);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn r_on_a_plan_in_review_opens_it_with_the_feedback_form() {
    let server = TestServer::start_demo().await;
    let plan = plan_in_review_of(&server, "Add a health endpoint");
    let browser = connected(&server).await;
    let c = &browser.client;
    browser.click("[data-testid=nav-command]").await;
    browser
        .wait_text("[data-testid=planning-missions]", |t| {
            t.contains("Add a health endpoint")
        })
        .await;
    let rows = c
        .find_all(Locator::Css(
            "[data-testid=command-row] .command-row__title",
        ))
        .await
        .unwrap();
    let mut index = None;
    for (i, row) in rows.iter().enumerate() {
        if row.text().await.unwrap() == "Add a health endpoint" {
            index = Some(i);
        }
    }
    let body = c.find(Locator::Css("body")).await.unwrap();
    for _ in 0..index.expect("the mission is listed") {
        body.send_keys("j").await.unwrap();
    }
    body.send_keys("r").await.unwrap();
    browser.wait_for("[data-testid=plan-review]").await;
    assert!(c.current_url().await.unwrap().path().ends_with(&plan));
    let form = c
        .find(Locator::Css("[data-testid=reject-feedback]"))
        .await
        .unwrap();
    assert!(
        form.is_displayed().await.unwrap(),
        "the feedback form is open"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_escalated_review_shows_why_and_a_person_merges_the_pr() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Reviewed search");
    let (status, _) = send_json(
        server.addr,
        "PATCH",
        &format!("/api/missions/{mission}"),
        &server.key,
        Some(
            &serde_json::json!({"mergePolicy": {"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer"}}}),
        ),
    );
    assert_eq!(status, 200);
    task_with_green_pr(
        &server,
        &mission,
        601,
        serde_json::json!([{"path": "src/search.rs", "status": "modified", "additions": 12, "deletions": 3, "patch": "+x"}]),
    );
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let waiting = browser
        .wait_text("[data-pr='601'] [data-testid=pr-review]", |t| !t.is_empty())
        .await;
    assert!(
        waiting.starts_with("Reviewer at work on review 1"),
        "{waiting}"
    );
    assert!(c
        .find_all(Locator::Css("[data-pr='601'] [data-testid=merge-pr]"))
        .await
        .unwrap()
        .is_empty());

    // The reviewer approves a PR into main: the server sends it to a person instead.
    let (_, prs) = get_json(
        server.addr,
        &format!("/api/prs?missionId={mission}"),
        &server.key,
    );
    let reviewer = prs["prs"][0]["reviews"][0]["reviewerTaskId"]
        .as_str()
        .unwrap()
        .to_string();
    server.complete_with_output(
        &reviewer,
        serde_json::json!({"verdict": "approve", "confidence": 0.9, "summary": "Tests cover the ranking."}),
    );
    let review = browser
        .wait_text("[data-pr='601'] [data-testid=pr-review]", |t| {
            t.starts_with("Escalated")
        })
        .await;
    assert!(
        review.starts_with("Escalated to you (the reviewer said approve (confidence 0.90))"),
        "{review}"
    );
    assert!(
        review.contains(
            "model approve: base 'main' is a protected trunk branch — human merge required"
        ),
        "{review}"
    );
    assert!(review.contains("Tests cover the ranking."), "{review}");
    browser
        .click("[data-pr='601'] [data-testid=merge-pr]")
        .await;
    browser
        .click("[data-pr='601'] [data-testid=confirm-merge]")
        .await;
    browser
        .wait_text("[data-pr='601'] [data-testid=pr-state]", |t| {
            t.eq_ignore_ascii_case("merged")
        })
        .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_workspace_default_policy_and_merge_switches_are_set_on_its_settings_page() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Inherits its workspace");
    let workspace = mission_workspace(&server);
    let browser = connected(&server).await;
    let c = &browser.client;
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    browser.click("[data-testid=workspace-settings-link]").await;
    let current = browser
        .wait_text("[data-testid=workspace-policy-current]", |t| !t.is_empty())
        .await;
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
    browser.fill("[data-testid=policy-stall]", "soon").await;
    browser.click("[data-testid=save-policy]").await;
    let error = browser
        .wait_text("[data-testid=policy-error-stall]", |t| !t.is_empty())
        .await;
    assert!(error.starts_with("stallNotifyMinutes:"), "{error}");
    assert_eq!(
        browser.value("[data-testid=policy-stall]").await.as_deref(),
        Some("soon")
    );
    browser.fill("[data-testid=policy-stall]", "45").await;
    browser.click("[data-testid=save-policy]").await;
    browser
        .wait_text("[data-testid=workspace-policy-current]", |t| {
            t == "Default: Human: a person merges"
        })
        .await;
    let (_, ws) = get_json(
        server.addr,
        &format!("/api/workspaces/{workspace}"),
        &server.key,
    );
    assert_eq!(
        ws["workspace"]["gitConfig"]["mergePolicy"],
        serde_json::json!({"tier": "human", "stallNotifyMinutes": 45})
    );

    // Switches: auto-merge off, the reviewer gets the patch.
    browser.click("[data-testid=edit-settings]").await;
    browser.click("[data-testid=auto-merge]").await;
    browser.click("[data-testid=patch-evidence]").await;
    browser.click("[data-testid=save-settings]").await;
    let switches = browser
        .wait_text("[data-testid=merge-settings-current]", |t| {
            t.contains("off")
        })
        .await;
    assert!(
        switches.contains("Auto-merge on green CI: off"),
        "{switches}"
    );
    assert!(
        switches.contains("the patch, with added lines numbered"),
        "{switches}"
    );
    let (_, ws) = get_json(
        server.addr,
        &format!("/api/workspaces/{workspace}"),
        &server.key,
    );
    assert_eq!(ws["workspace"]["gitConfig"]["autoMergeOnGreenCI"], false);
    assert_eq!(
        ws["workspace"]["gitConfig"]["policyConfig"]["reviewerPatchEvidence"],
        true
    );

    // The mission inherits the new default, and says so.
    c.goto(&server.url(&format!("/missions/{mission}")))
        .await
        .unwrap();
    let effective = browser
        .wait_text("[data-testid=effective-policy]", |t| !t.is_empty())
        .await;
    assert!(effective.starts_with("Human"), "{effective}");
    browser.close().await;
}
