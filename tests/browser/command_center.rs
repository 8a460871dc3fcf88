//! The command center: planning apart from execution, what waits on a person, its filters
//! in the address, and its keys.

use crate::fixtures::api::{
    approve_plan, id_of, new_mission, new_mission_with, notes_of_type, patch, plan_in_review_of,
    planned, runner_note, task_with_green_pr,
};
use crate::fixtures::check::{any_text, text_is, text_with};
use crate::fixtures::{connected, open, Page};
use buildd_testkit::TestServer;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_command_center_splits_planning_from_execution_and_lists_what_waits_on_you() {
    let server = TestServer::start_demo().await;
    // A mission whose plan was approved: its tasks are filed, none picked up yet.
    let mission = new_mission(&server, "Rate limits").await;
    let steps = json!({"plan": [{"ref": "a", "title": "Add the limiter", "description": "d"},
                                {"ref": "b", "title": "Document limits", "description": "d", "dependsOn": ["a"]}],
                       "summary": "Two steps.", "missionComplete": false});
    let planning = planned(&server, &mission, steps).await;
    assert_eq!(approve_plan(&server, &planning).await, 200);
    let question =
        json!({"type": "question", "title": "Per key or per IP?", "defaultChoice": "per key"});
    assert_eq!(runner_note(&server, &mission, question).await, 201);

    let browser = connected(&server).await;
    let c = &browser.client;
    browser.click("[data-testid=nav-command]").await;
    let waiting = text_with(
        &browser,
        "[data-testid=waiting-on-you]",
        "Per key or per IP?",
    )
    .await;
    assert!(
        waiting.contains("Review the plan of Add a health endpoint"),
        "{waiting}"
    );
    assert!(
        waiting.contains("Stabilise flaky CI: 1 task failed and nothing is queued"),
        "the demo's failed work, which nothing will retry: {waiting}"
    );
    // The demo's own open question waits too.
    assert!(
        waiting.contains("Answer: Keep PayPal Express on the new payment form?"),
        "{waiting}"
    );
    // The demo's open PR changes payment code, which its mission keeps for a person.
    assert!(waiting.contains("Merge PR #102"), "{waiting}");
    assert!(waiting.starts_with("Waiting on you (5)"), "{waiting}");
    // The tab names its page, and the nav marks where you are.
    assert_eq!(
        c.title().await.unwrap(),
        "(5) Command center · Mission Control"
    );
    assert_eq!(
        browser
            .attr("[data-testid=nav-command]", "aria-current")
            .await
            .as_deref(),
        Some("page")
    );
    assert_eq!(
        browser
            .attr("[data-testid=nav-missions]", "aria-current")
            .await,
        None
    );
    let planning_rows = text_with(
        &browser,
        "[data-testid=planning-missions]",
        "Add a health endpoint",
    )
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

    // A mission worked with a person says so. The mode and step filters live in the URL;
    // each leaves only Rate limits, which is past planning.
    let interactive = json!({"mode": "interactive"});
    let status = patch(&server, &format!("/api/missions/{mission}"), interactive).await;
    assert_eq!(status, 200);
    for (query, mode) in [
        ("?mode=interactive", Some("interactive")),
        ("?step=3", None),
    ] {
        open(&browser, &server, Page::CommandCenter(query)).await;
        let only = text_with(&browser, "[data-testid=execution-missions]", "Rate limits").await;
        if let Some(mode) = mode {
            assert!(only.to_lowercase().contains(mode), "{only}");
        }
        let planning_rows = any_text(&browser, "[data-testid=planning-missions]").await;
        assert_eq!(planning_rows, "Planning\nNone.");
    }

    // ? lists the keys; Esc hides them.
    // The keys come once the rows show.
    browser.wait_for("[data-testid=keys-live]").await;
    let body = c.find(Locator::Css("body")).await.unwrap();
    body.send_keys("?").await.unwrap();
    let keys = text_with(&browser, "[data-testid=shortcuts]", "j / k").await;
    assert!(keys.contains("Open the selected mission"), "{keys}");
    body.send_keys("\u{E00C}").await.unwrap();
    browser.wait_for_absent("[data-testid=shortcuts]").await;

    // j selects the first mission shown, marks it and takes the focus there; Enter opens it.
    body.send_keys("j").await.unwrap();
    browser
        .wait_text(
            "[data-testid=command-row][aria-current=true] .command-row__title",
            |t| t == "Rate limits",
        )
        .await;
    // The focus follows the mark once the row has rendered.
    browser
        .wait_answer("return document.activeElement.textContent", |t| {
            t == "Rate limits"
        })
        .await;
    // Enter on another focused link is that link's.
    browser
        .run("document.querySelector('[data-testid=nav-missions]').focus()")
        .await;
    c.active_element()
        .await
        .unwrap()
        .send_keys("\u{E007}")
        .await
        .unwrap();
    browser.wait_for("[data-testid=mission-card]").await;
    // Back on the filtered command center, j and Enter open the one mission it shows.
    c.back().await.unwrap();
    browser.wait_for("[data-testid=command-row]").await;
    // The keys come once the rows show.
    browser.wait_for("[data-testid=keys-live]").await;
    let body = c.find(Locator::Css("body")).await.unwrap();
    body.send_keys("j").await.unwrap();
    body.send_keys("\u{E007}").await.unwrap();
    text_is(&browser, "[data-testid=mission-title]", "Rate limits").await;

    // The nav counts what waits on you from every page, and follows the answers.
    let count = any_text(&browser, "[data-testid=nav-waiting-count]").await;
    assert_eq!(count, "5");
    let questions = notes_of_type(&server, &mission, "question").await;
    let question = id_of(&questions["notes"][0]);
    let (status, _) = server
        .admin(
            "POST",
            &format!("/api/missions/{mission}/notes/{question}/reply"),
            Some(json!({"title": "Per key"})),
        )
        .await;
    assert_eq!(status, 201);
    text_is(&browser, "[data-testid=nav-waiting-count]", "4").await;
    assert_eq!(
        c.title().await.unwrap(),
        "(4) Rate limits · Mission Control"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn r_on_a_plan_in_review_opens_it_with_the_feedback_form() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    let c = &browser.client;
    browser.click("[data-testid=nav-command]").await;
    text_with(
        &browser,
        "[data-testid=planning-missions]",
        "Add a health endpoint",
    )
    .await;
    let rows = browser
        .texts("[data-testid=command-row] .command-row__title")
        .await;
    let index = rows.iter().rposition(|t| t == "Add a health endpoint");
    // The keys come once the rows show.
    browser.wait_for("[data-testid=keys-live]").await;
    let body = c.find(Locator::Css("body")).await.unwrap();
    for _ in 0..index.expect("the mission is listed") {
        body.send_keys("j").await.unwrap();
    }
    body.send_keys("r").await.unwrap();
    browser.wait_for("[data-testid=plan-review]").await;
    let plan = plan_in_review_of(&server, "Add a health endpoint").await;
    assert!(browser.path().await.ends_with(&plan));
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

/// The waiting item whose text holds `part`, as a CSS selector of its position.
async fn waiting_item(browser: &buildd_testkit::Browser, part: &str) -> String {
    let index = browser
        .run(&format!(
            "const items = [...document.querySelectorAll('[data-testid=waiting-item]')];
             return items.findIndex(i => i.textContent.includes({part:?})) + 1;"
        ))
        .await;
    let n = index.as_u64().unwrap_or(0);
    assert!(n > 0, "no waiting item with {part}");
    format!("[data-testid=waiting-item]:nth-child({n})")
}

#[tokio::test(flavor = "multi_thread")]
async fn what_waits_on_you_is_acted_on_in_place_with_its_age() {
    let server = TestServer::start_demo().await;
    // A mission whose work is done and waits for a person to close it.
    let dormant = crate::fixtures::api::new_mission_with(
        &server,
        json!({"title": "Audit access", "requiresReview": true, "orchestrationMode": "manual",
               "isHeartbeat": false}),
    )
    .await;
    let task = crate::fixtures::api::new_task(&server, "Review the list", Some(&dormant)).await;
    {
        use buildd_testkit::WorkerVerbs;
        server
            .complete_task(&task, json!({"summary": "Reviewed"}))
            .await;
    }
    let browser = connected(&server).await;
    browser.click("[data-testid=nav-command]").await;
    text_with(
        &browser,
        "[data-testid=waiting-on-you]",
        "Close Audit access",
    )
    .await;
    let ages = browser.texts("[data-testid=waiting-age]").await;
    assert_eq!(ages.len(), 5, "{ages:?}");
    assert!(
        ages.iter().all(|a| a.ends_with("ago") || a == "just now"),
        "{ages:?}"
    );

    // Reject opens its box here; empty feedback is refused beside it; the rest approves.
    let plan = waiting_item(&browser, "Review the plan of Add a health endpoint").await;
    browser
        .click(&format!("{plan} [data-testid=waiting-reject]"))
        .await;
    browser
        .click(&format!("{plan} [data-testid=waiting-send-feedback]"))
        .await;
    text_with(
        &browser,
        &format!("{plan} [data-testid=waiting-error]"),
        "Feedback is required",
    )
    .await;
    browser
        .click(&format!("{plan} [data-testid=waiting-approve]"))
        .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Review the plan of Add a health endpoint")
        })
        .await;
    let id = plan_in_review_of(&server, "Add a health endpoint").await;
    let approved = server.get(&format!("/api/tasks/{id}")).await;
    assert_eq!(approved["status"], "completed");

    // Failed work runs again from here, and its link leads to the failed task.
    let failed = waiting_item(&browser, "Stabilise flaky CI").await;
    let href = browser
        .attr(&format!("{failed} a"), "href")
        .await
        .unwrap_or_default();
    assert!(href.starts_with("/tasks/"), "{href}");
    browser
        .click(&format!("{failed} [data-testid=waiting-retry]"))
        .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Stabilise flaky CI")
        })
        .await;
    let retried = server
        .get(&format!(
            "/api/tasks/{}",
            href.trim_start_matches("/tasks/")
        ))
        .await;
    assert_eq!(retried["status"], "pending");

    // The PR its mission keeps for a person merges from here.
    let held = waiting_item(&browser, "Merge PR #102").await;
    browser
        .click(&format!("{held} [data-testid=waiting-merge]"))
        .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Merge PR #102")
        })
        .await;
    let prs = server.get("/api/prs").await;
    let merged = prs["prs"]
        .as_array()
        .expect("prs")
        .iter()
        .find(|p| p["number"] == 102)
        .expect("PR #102");
    assert_eq!(merged["state"], "merged");

    // Close asks once more, then closes the mission.
    let close = waiting_item(&browser, "Close Audit access").await;
    browser
        .click(&format!("{close} [data-testid=waiting-close]"))
        .await;
    browser
        .click(&format!("{close} [data-testid=waiting-confirm-close]"))
        .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Close Audit access")
        })
        .await;
    assert_eq!(
        crate::fixtures::api::mission(&server, &dormant).await["status"],
        "completed"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn waiting_on_you_lists_every_item_it_counts() {
    let server = TestServer::start_demo().await;
    // Two questions and two PRs held for a person on one mission: each pair shares its kind
    // and its link.
    let mission = new_mission_with(
        &server,
        json!({"title": "Billing export", "requiresReview": true, "orchestrationMode": "manual"}),
    )
    .await;
    for question in ["CSV or JSON?", "Daily or hourly?"] {
        let note = json!({"type": "question", "title": question});
        assert_eq!(runner_note(&server, &mission, note).await, 201);
    }
    for number in [701, 702] {
        let files = json!([{"path": format!("src/export_{number}.rs"), "status": "modified",
                            "additions": 12, "deletions": 3, "patch": "+x"}]);
        task_with_green_pr(&server, &mission, number, files).await;
    }

    let browser = connected(&server).await;
    browser.click("[data-testid=nav-command]").await;
    // The demo's four, and these four.
    text_is(
        &browser,
        "[data-testid=waiting-on-you] .card__title",
        "Waiting on you (8)",
    )
    .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            [
                "CSV or JSON?",
                "Daily or hourly?",
                "Merge PR #701",
                "Merge PR #702",
            ]
            .iter()
            .all(|part| t.contains(part))
        })
        .await;
    assert_eq!(browser.count("[data-testid=waiting-item]").await, 8);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mission_out_of_budget_waits_on_you_and_is_raised_from_there() {
    let server = TestServer::start_demo().await;
    let id = crate::fixtures::api::spent_mission(&server, "Search reindex").await;
    let browser = connected(&server).await;
    browser.click("[data-testid=nav-command]").await;
    text_with(
        &browser,
        "[data-testid=waiting-on-you]",
        "Raise the budget of Search reindex: $1.40 of $1.00 spent",
    )
    .await;
    // Raise budget in place: at the spend it is refused with the server's reason, and the
    // amount stays; above it, the mission is active again and waits on no one.
    let item = waiting_item(&browser, "Raise the budget of Search reindex").await;
    let input = format!("{item} [data-testid=budget-input]");
    browser.fill(&input, "1.40").await;
    browser
        .click(&format!("{item} [data-testid=raise-budget-button]"))
        .await;
    text_is(
        &browser,
        &format!("{item} [data-testid=budget-error]"),
        "Not raised: costBudgetUsd must be above the $1.40 already spent",
    )
    .await;
    assert_eq!(browser.value(&input).await.as_deref(), Some("1.40"));
    browser.fill(&input, "3").await;
    browser
        .click(&format!("{item} [data-testid=raise-budget-button]"))
        .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Raise the budget of")
        })
        .await;
    let m = crate::fixtures::api::mission(&server, &id).await;
    assert_eq!(m["status"], "active");
    assert_eq!(m["costBudgetUsd"], "3.00");
    // Active again, it is a row of the command center, with what it spent of what.
    browser
        .wait_text("[data-testid=command-center]", |t| {
            t.contains("$1.40 of $3.00 spent")
        })
        .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_organizers_question_is_answered_in_place_with_a_choice_or_words() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Search speed").await;
    let asked = json!({"type": "question", "title": "Which cache?",
                       "options": ["Redis", "Memcached"], "defaultChoice": "Redis"});
    assert_eq!(runner_note(&server, &mission, asked).await, 201);
    let browser = connected(&server).await;
    browser.click("[data-testid=nav-command]").await;
    // Its item (the demo has a question of its own).
    let item = &format!("[data-testid=waiting-item]:has(a[href^=\"/missions/{mission}\"])");
    let text = text_with(
        &browser,
        "[data-testid=waiting-on-you]",
        "Answer: Which cache?",
    )
    .await;
    assert!(text.contains("Redis (default)"), "{text}");
    // Nothing typed: said in place, nothing sent.
    browser
        .click(&format!("{item} [data-testid=answer-send]"))
        .await;
    text_with(
        &browser,
        &format!("{item} [data-testid=answer-error]"),
        "Write an answer",
    )
    .await;
    browser
        .fill(
            &format!("{item} [data-testid=answer-text]"),
            "Redis, for a week",
        )
        .await;
    browser
        .click(&format!("{item} [data-testid=answer-send]"))
        .await;
    browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            !t.contains("Answer: Which cache?")
        })
        .await;
    // A person's reply on the mission's notes, which answered the question.
    let replies = notes_of_type(&server, &mission, "reply").await;
    let reply = &replies["notes"][0];
    assert_eq!(
        (reply["title"].as_str(), reply["authorType"].as_str()),
        (Some("Redis, for a week"), Some("user"))
    );
    let questions = notes_of_type(&server, &mission, "question").await;
    assert_eq!(questions["notes"][0]["status"], "answered");
    browser.close().await;
}

/// Where `css`'s first match is in the window: `[top, bottom, left, right]`, and the
/// window's height.
async fn placed(browser: &buildd_testkit::Browser, css: &str) -> ([f64; 4], f64) {
    let found = browser
        .run(&format!(
            "const r = document.querySelector({css:?}).getBoundingClientRect();
             return [[r.top, r.bottom, r.left, r.right], window.innerHeight];"
        ))
        .await;
    let box_: [f64; 4] = serde_json::from_value(found[0].clone()).expect("a box");
    (box_, found[1].as_f64().expect("a height"))
}

#[tokio::test(flavor = "multi_thread")]
async fn what_waits_on_you_is_on_the_first_screen_wide_and_narrow() {
    let server = TestServer::start_demo().await;
    // Wide: the list beside the rows, its first item in view without scrolling.
    let browser = buildd_testkit::Browser::start(1366).await;
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=command-row]").await;
    browser.wait_for("[data-testid=waiting-item]").await;
    let (rows, _) = placed(&browser, ".command-center__rows").await;
    let (item, height) = placed(&browser, "[data-testid=waiting-item]").await;
    assert!(
        item[1] <= height,
        "the first item ends at {} of {height}",
        item[1]
    );
    assert!(
        item[2] >= rows[3],
        "the list starts at {} left of the rows' {}",
        item[2],
        rows[3]
    );
    let display = browser
        .run("return getComputedStyle(document.querySelector('[data-testid=waiting-summary]')).display")
        .await;
    assert_eq!(display, "none", "the summary is for narrow windows");
    browser.close().await;

    // Narrow: the count and the first item above the rows, leading to the list.
    let browser = buildd_testkit::Browser::start(375).await;
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=waiting-item]").await;
    let count = browser.count("[data-testid=waiting-item]").await;
    let summary = browser
        .wait_text("[data-testid=waiting-summary]", |t| t.contains('('))
        .await;
    assert!(
        summary.contains(&format!("Waiting on you ({count})")),
        "{summary}"
    );
    let first = browser
        .texts("[data-testid=waiting-item] .waiting__line > a")
        .await;
    assert_eq!(
        browser.texts("[data-testid=waiting-summary-first]").await,
        first[..1]
    );
    let (above, height) = placed(&browser, "[data-testid=waiting-summary]").await;
    let (row, _) = placed(&browser, "[data-testid=command-row]").await;
    assert!(
        above[1] <= row[0],
        "the summary ends at {}, the rows start at {}",
        above[1],
        row[0]
    );
    assert!(above[1] <= height);
    browser.click("[data-testid=waiting-summary] a").await;
    let (list, height) = placed(&browser, "[data-testid=waiting-on-you]").await;
    assert!(
        list[0] >= -1.0 && list[0] < height,
        "the link leads to the list: {}",
        list[0]
    );
    browser.close().await;
}
