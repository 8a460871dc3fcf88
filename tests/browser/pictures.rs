//! A mission's pictures, drawn from a history made over the API as a runner and a lead
//! would make it: a plan approved, its steps done, merged, awaiting merge, running and
//! failed, money spent against a budget, a second plan in review. The burn-up, spend and
//! timeline show it and their tables say it; the timeline zooms by keyboard; axe finds
//! nothing serious in either theme; on a hosted Buildd what its answers lack is said.

use crate::fixtures::api::{
    approve_plan, id_of, mission, mission_workspace, new_mission_with, planned, row,
};
use crate::fixtures::check::{any_text, text_with};
use crate::fixtures::{opened, Page};
use buildd_core::client::ClientMission;
use buildd_core::insights::burn_up::burn_up;
use buildd_core::insights::events::task_events;
use buildd_core::organizer_runs::MissionRuns;
use buildd_server::db::sql;
use buildd_testkit::{Api, Browser, RecordedBuildd, TestServer, ThroughUpstream, WorkerVerbs};
use serde_json::{json, Value};

const TITLE: &str = "Pictures of a mission";

/// A plan step `title` of ref `r`.
fn step(r: &str, title: &str) -> Value {
    json!({"ref": r, "title": title, "description": "d"})
}

/// The id of the task `title` of mission `id`.
async fn task(server: &TestServer, id: &str, title: &str) -> String {
    id_of(&row(&mission(server, id).await["tasks"], |t| {
        t["title"] == title
    }))
}

/// Claims the task `title` and reports `body` on it.
async fn report(server: &TestServer, id: &str, title: &str, body: Value) {
    let worker = server.claim_task(&task(server, id, title).await).await;
    server.report_ok(&worker, body).await;
}

/// `body` of a completed task with PR `number`, head `sha`, costing `cost`.
fn with_pr(number: i64, sha: &str, cost: f64) -> Value {
    json!({"status": "completed", "prNumber": number, "costUsd": cost, "baseBranch": "main",
           "prUrl": format!("https://github.com/acme/storefront/pull/{number}"), "headSha": sha,
           "files": [{"path": "src/x.rs", "status": "modified", "additions": 3, "deletions": 1, "patch": "+x"}]})
}

/// A manual mission with a $5.00 budget and this history: a plan of five steps approved;
/// "Write" done without a PR ($0.40), "Merge" done and its PR #71 merged ($0.30), "Review"
/// done with PR #72 open ($0.20), "Run" running ($0.05), "Break" failed ($0.05): $1.00
/// spent. Then a second plan of two steps, in review. Its id.
async fn mission_with_history(server: &TestServer) -> String {
    let id = new_mission_with(
        server,
        json!({"title": TITLE, "orchestrationMode": "manual", "isHeartbeat": false,
               "costBudgetUsd": 5.0}),
    )
    .await;
    let titles = ["Write", "Merge", "Review", "Run", "Break"];
    let steps: Vec<Value> = titles.iter().map(|t| step(&t.to_lowercase(), t)).collect();
    let plan = json!({"plan": steps, "summary": "Five steps.", "missionComplete": false});
    assert_eq!(
        approve_plan(server, &planned(server, &id, plan).await).await,
        200
    );
    let done = json!({"status": "completed", "summary": "Done", "costUsd": 0.4});
    report(server, &id, "Write", done).await;
    report(server, &id, "Merge", with_pr(71, "beef0071", 0.3)).await;
    let check = json!({"workspaceId": mission_workspace(server).await, "headSha": "beef0071",
                       "name": "test", "status": "completed", "conclusion": "success"});
    let (status, body) = server
        .send(
            "POST",
            "/api/prs/71/checks",
            &server.worker_key,
            Some(check),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    // Merged by a person unless its policy merged it once CI passed.
    let prs = server.get(&format!("/api/prs?missionId={id}")).await;
    if row(&prs["prs"], |p| p["number"] == 71)["state"] == "open" {
        let merge = json!({"workspaceId": mission_workspace(server).await});
        let (status, body) = server.admin("POST", "/api/prs/71/merge", Some(merge)).await;
        assert_eq!(status, 200, "{body}");
    }
    report(server, &id, "Review", with_pr(72, "beef0072", 0.2)).await;
    let running = json!({"status": "running", "costUsd": 0.05});
    report(server, &id, "Run", running).await;
    let failed = json!({"status": "failed", "error": "It broke", "costUsd": 0.05});
    report(server, &id, "Break", failed).await;
    let next = json!({"plan": [step("more", "More"), step("again", "Again")],
                      "summary": "Two more.", "missionComplete": false});
    planned(server, &id, next).await;
    id
}

/// The number of points core's burn-up gives the mission as the API answers it, the last
/// at now (the page's own now is later still, after the same events), and its check-ins.
async fn burn_up_points(server: &TestServer, id: &str) -> (usize, usize) {
    let detail: ClientMission = serde_json::from_value(mission(server, id).await).unwrap();
    let runs: MissionRuns =
        serde_json::from_value(server.get(&format!("/api/missions/{id}/runs")).await).unwrap();
    let events = task_events(&detail.tasks);
    let now = chrono::Utc::now().timestamp_millis() + 1;
    let burn = burn_up(&events, &runs.check_ins, now);
    (burn.points.len(), runs.check_ins.len())
}

/// Gives `css` the keyboard focus.
async fn focus(browser: &Browser, css: &str) {
    browser
        .run(&format!("document.querySelector('{css}').focus()"))
        .await;
}

/// Presses the key that types `c` where the focus is.
async fn press_char(browser: &Browser, c: char) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: c })
        .then(KeyAction::Up { value: c });
    browser.client.perform_actions(keys).await.expect("a key");
}

/// The cells of the last row of the table `css`.
async fn last_row(browser: &Browser, css: &str) -> Vec<String> {
    browser
        .texts(&format!("{css} tbody tr:last-child td"))
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missions_history_draws_as_a_burn_up_spend_and_a_timeline_with_tables() {
    let server = TestServer::start_demo().await;
    let id = mission_with_history(&server).await;
    let (points, check_ins) = burn_up_points(&server, &id).await;
    let browser = opened(&server, Page::MissionPictures(&id)).await;

    // The burn-up: five bands over every moment the deliverables moved, the plan's
    // approval and the check-ins marked.
    browser.wait_for("[data-testid=burn-up-svg]").await;
    let shown = browser
        .attr("[data-testid=burn-up-svg]", "data-points")
        .await;
    assert_eq!(shown, Some(points.to_string()));
    let bands = browser
        .run("return [...document.querySelectorAll('.pic__band')].map(b => b.dataset.series)");
    assert_eq!(
        bands.await,
        json!(["done", "awaiting", "in-flight", "failed", "not-started"])
    );
    let approvals = "[data-testid=burn-up-marker][data-kind=plan-approved]";
    assert_eq!(browser.count(approvals).await, 1);
    let marked = "[data-testid=burn-up-marker][data-kind=check-in]";
    assert_eq!(browser.count(marked).await, check_ins);
    let summary = any_text(&browser, "[data-testid=burn-up-picture-summary]").await;
    assert!(summary.contains("2 of 5 done"), "{summary}");
    // Its latest point by keyboard, read out.
    focus(&browser, "[data-testid=burn-up-svg]").await;
    browser.press(fantoccini::key::Key::End).await;
    text_with(
        &browser,
        "[data-testid=burn-up-picture-readout]",
        "2 of 5 done, 1 awaiting merge, 1 in flight, 1 failed, 0 not started",
    )
    .await;
    // Its table, a click away: a row a point, the last the figures now.
    browser
        .click("[data-testid=burn-up-picture-table-toggle]")
        .await;
    browser.wait_for("[data-testid=burn-up-table]").await;
    let rows = browser.count("[data-testid=burn-up-table] tbody tr").await;
    assert_eq!(rows, points);
    let now = last_row(&browser, "[data-testid=burn-up-table]").await;
    assert_eq!(now, ["2", "1", "1", "1", "0", "5"]);
    let moments = any_text(&browser, "[data-testid=burn-up-markers-table]").await;
    assert!(
        moments.contains(&format!("Plan approved: Mission: {TITLE}")),
        "{moments}"
    );

    // Spend: its line under the $5.00 budget, the plan in review ahead of it.
    browser.wait_for("[data-testid=spend-line]").await;
    text_with(&browser, "[data-testid=spend-budget]", "Budget $5.00").await;
    let d = browser.attr("[data-testid=spend-line]", "d").await.unwrap();
    assert!(d.starts_with('M') && d.contains('V'), "{d}");
    // Two steps at the median of the three finished ($0.30), after $1.00.
    text_with(
        &browser,
        "[data-testid=spend-forecast]",
        "Plan in review: $1.60",
    )
    .await;
    browser
        .click("[data-testid=spend-picture-table-toggle]")
        .await;
    let caption = any_text(&browser, "[data-testid=spend-table] caption").await;
    assert!(caption.ends_with("budget $5.00"), "{caption}");
    let spent = browser
        .texts("[data-testid=spend-table] tbody tr:not([data-testid]) td:nth-child(2)")
        .await;
    assert_eq!(spent.last().map(String::as_str), Some("$1.00"), "{spent:?}");
    let ahead = any_text(&browser, "[data-testid=spend-table-forecast]").await;
    assert!(ahead.contains("$1.60"), "{ahead}");

    // The timeline: a bar a task, by outcome, the merge of PR #71 marked.
    let tasks = mission(&server, &id).await["tasks"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(tasks, 7, "two planning runs and five steps");
    assert_eq!(browser.count("[data-testid=timeline-bar]").await, tasks);
    for (outcome, n) in [("done", 5), ("running", 1), ("failed", 1)] {
        let css = format!("[data-testid=timeline-bar][data-outcome={outcome}]");
        assert_eq!(browser.count(&css).await, n, "{outcome}");
    }
    assert_eq!(browser.count("[data-testid=timeline-merge]").await, 1);
    browser
        .click("[data-testid=timeline-picture-table-toggle]")
        .await;
    let table_rows = browser.count("[data-testid=timeline-row]").await;
    assert_eq!(table_rows, tasks);
    text_with(&browser, "[data-testid=timeline-table]", "#71, merged").await;
    text_with(&browser, "[data-testid=timeline-table]", "#72, open").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_timeline_zooms_and_scrolls_by_keyboard_and_reads_out_its_tasks() {
    let server = TestServer::start_demo().await;
    let id = mission_with_history(&server).await;
    let browser = opened(&server, Page::MissionPictures(&id)).await;
    const BARS: &str = "[data-testid=timeline-bars]";
    browser.wait_for("[data-testid=timeline-bar]").await;
    let whole = browser.attr(BARS, "transform").await.unwrap();
    assert_eq!(whole, "translate(-0.00 0) scale(1.0000 1)");
    focus(&browser, "[data-testid=timeline-svg]").await;
    press_char(&browser, '+').await;
    let closer = browser.attr(BARS, "transform").await.unwrap();
    assert_eq!(
        closer, "translate(-255.00 0) scale(2.0000 1)",
        "around the middle"
    );
    text_with(
        &browser,
        "[data-testid=timeline-picture-readout]",
        "Showing ",
    )
    .await;
    // Along to the end of the history, and no further.
    for _ in 0..5 {
        browser.press(fantoccini::key::Key::Right).await;
    }
    let later = browser.attr(BARS, "transform").await.unwrap();
    assert_eq!(later, "translate(-510.00 0) scale(2.0000 1)");
    press_char(&browser, '-').await;
    press_char(&browser, '-').await;
    assert_eq!(browser.attr(BARS, "transform").await.unwrap(), whole);
    press_char(&browser, '+').await;
    press_char(&browser, '0').await;
    assert_eq!(browser.attr(BARS, "transform").await.unwrap(), whole);
    // Down the lanes, each task read out: first the approved plan's run.
    browser.press(fantoccini::key::Key::Down).await;
    let said = text_with(
        &browser,
        "[data-testid=timeline-picture-readout]",
        &format!("Mission: {TITLE}: done"),
    )
    .await;
    assert!(said.ends_with("wave 0)"), "{said}");
    // Last, the plan in review's run, which filed nothing yet.
    browser.press(fantoccini::key::Key::End).await;
    text_with(
        &browser,
        "[data-testid=timeline-picture-readout]",
        "(Filed directly, wave 0)",
    )
    .await;
    browser.close().await;
}

/// Where the lane in hand is, against the timeline's scrolled box: (lane top, lane bottom,
/// box top, box bottom, how far the box is scrolled).
async fn lane_in_box(browser: &Browser) -> Vec<f64> {
    let at = browser
        .run(
            "const box = document.querySelector('.pic__scroll').getBoundingClientRect(); \
             const lane = document.querySelector('.pic__lane').getBoundingClientRect(); \
             return [lane.top, lane.bottom, box.top, box.bottom, \
                     document.querySelector('.pic__scroll').scrollTop];",
        )
        .await;
    serde_json::from_value(at).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lane_stepped_to_by_keyboard_is_scrolled_into_view() {
    let server = TestServer::start_demo().await;
    let id = new_mission_with(
        &server,
        json!({"title": "Forty tasks", "orchestrationMode": "manual", "isHeartbeat": false}),
    )
    .await;
    for n in 1..=40 {
        let body = json!({"title": format!("Task {n}"), "missionId": id,
                          "workspaceId": mission_workspace(&server).await});
        let (status, answer) = server.admin("POST", "/api/tasks", Some(body)).await;
        assert!(status.is_success(), "{answer}");
    }
    let browser = opened(&server, Page::MissionPictures(&id)).await;
    browser.wait_for("[data-testid=timeline-bar]").await;
    focus(&browser, "[data-testid=timeline-svg]").await;
    // The last lane is below the box's fold: End scrolls the box to it.
    browser.press(fantoccini::key::Key::End).await;
    text_with(
        &browser,
        "[data-testid=timeline-picture-readout]",
        "Task 40:",
    )
    .await;
    let mut at = lane_in_box(&browser).await;
    for _ in 0..20 {
        if at[4] > 0.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        at = lane_in_box(&browser).await;
    }
    assert!(at[4] > 0.0, "the box scrolled: {at:?}");
    assert!(
        at[0] >= at[2] - 0.5 && at[1] <= at[3] + 0.5,
        "the lane shows: {at:?}"
    );
    // Home goes back up to the first lane, in view again.
    browser.press(fantoccini::key::Key::Home).await;
    text_with(
        &browser,
        "[data-testid=timeline-picture-readout]",
        "Task 1:",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let at = lane_in_box(&browser).await;
    assert!(
        at[0] >= at[2] - 0.5 && at[1] <= at[3] + 0.5,
        "the lane shows: {at:?}"
    );
    browser.close().await;
}

/// The tasks of a 600-task mission, filed straight into the database, a minute apart.
async fn many_tasks(server: &TestServer, id: &str, n: usize) {
    let mut tx = server.db.write().await.unwrap();
    sql::query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) \
         INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, status, mode, created_at, updated_at) \
         SELECT printf('many-%04d', i), m.team_id, m.workspace_id, m.id, printf('Task %d', i), 'pending', 'execution', \
           strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d minutes', i)), \
           strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d minutes', i)) \
         FROM n, missions m WHERE m.id = ?2",
    )
    .bind(n as i64)
    .bind(id)
    .execute(&mut tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_timeline_draws_the_lanes_near_its_view_and_the_rest_as_it_scrolls() {
    let server = TestServer::start_demo().await;
    let id = new_mission_with(
        &server,
        json!({"title": "Six hundred tasks", "orchestrationMode": "manual", "isHeartbeat": false}),
    )
    .await;
    many_tasks(&server, &id, 600).await;
    let browser = opened(&server, Page::MissionPictures(&id)).await;
    browser.wait_for("[data-testid=timeline-bar]").await;
    let first = "[data-testid=timeline-bar][data-task-id=many-0001]";
    let last = "[data-testid=timeline-bar][data-task-id=many-0600]";
    assert_eq!(browser.count(first).await, 1, "the first lane is drawn");
    assert_eq!(
        browser.count(last).await,
        0,
        "the last lane is not drawn yet"
    );
    let drawn = browser.count("[data-testid=timeline-bar]").await;
    assert!(drawn < 600, "{drawn} of 600 lanes drawn before any scroll");
    // Scrolled to its end, the box draws the last lanes and leaves the first.
    browser
        .run("const b = document.querySelector('.pic__scroll'); b.scrollTop = b.scrollHeight; return null;")
        .await;
    browser.wait_for(last).await;
    browser.wait_for_absent(first).await;
    // The table, the picture's text alternative, still lists every task.
    browser
        .click("[data-testid=timeline-picture-table-toggle]")
        .await;
    assert_eq!(browser.count("[data-testid=timeline-row]").await, 600);
    browser.close().await;
}

/// The names of the files the page fetched that end in `.wasm` or `.css`.
const FETCHED: &str = "return performance.getEntriesByType('resource')
    .map(e => new URL(e.name).pathname.slice(1))
    .filter(p => p.endsWith('.wasm') || p.endsWith('.css'));";

#[tokio::test(flavor = "multi_thread")]
async fn a_settled_mission_page_fetches_the_pictures_ahead_and_the_tab_fetches_nothing() {
    let server = TestServer::start_demo().await;
    let id = mission_with_history(&server).await;
    let browser = opened(&server, Page::Mission(&id)).await;
    let has = |names: &Value, prefix: &str| {
        names.as_array().is_some_and(|n| {
            n.iter()
                .any(|n| n.as_str().is_some_and(|n| n.starts_with(prefix)))
        })
    };
    // No click yet: the page fetches the pictures' code and styles once it has settled.
    let before = browser
        .wait_answer(FETCHED, |n| {
            has(n, "split_mission_pictures") && has(n, "pictures.css")
        })
        .await;
    assert_eq!(
        browser
            .attr("[data-testid=tab-pictures]", "aria-selected")
            .await
            .as_deref(),
        Some("false")
    );
    browser.click("[data-testid=tab-pictures]").await;
    browser
        .wait_for("[data-testid=burn-up-svg] .pic__bands path")
        .await;
    browser.wait_for("[data-testid=timeline-bar]").await;
    assert_eq!(browser.run(FETCHED).await, before, "the tab fetched more");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_pictures_and_their_tables_have_no_serious_accessibility_violation() {
    let server = TestServer::start_demo().await;
    let id = mission_with_history(&server).await;
    let browser = opened(&server, Page::MissionPictures(&id)).await;
    let mut serious = String::new();
    for theme in ["light", "dark"] {
        browser
            .run(&format!("localStorage.setItem('buildd.theme', '{theme}')"))
            .await;
        browser
            .goto(&server.url(&format!("/missions/{id}?tab=pictures")))
            .await;
        browser.wait_for("[data-testid=spend-forecast]").await;
        browser.wait_for("[data-testid=timeline-bar]").await;
        let shown = browser
            .run("return document.documentElement.getAttribute('data-theme')")
            .await;
        assert_eq!(shown, theme);
        for tables in [false, true] {
            if tables {
                for picture in ["burn-up", "spend", "timeline"] {
                    let toggle = format!("[data-testid={picture}-picture-table-toggle]");
                    browser.click(&toggle).await;
                }
                browser.wait_for("[data-testid=timeline-table]").await;
            }
            for violation in browser.axe().await {
                if violation.is_serious() {
                    serious.push_str(&format!("{theme}, tables {tables}: {violation}"));
                }
            }
        }
    }
    assert!(serious.is_empty(), "axe, serious and critical:\n{serious}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_hosted_buildd_what_its_answers_lack_is_said_not_drawn() {
    const MISSION: &str = "50000000-0000-4000-8000-000000000001";
    let buildd = RecordedBuildd::start().await;
    let dashboard = ThroughUpstream::start(&buildd.url()).await;
    let browser = Browser::start(1280).await;
    browser.goto(&dashboard.url("/connect")).await;
    browser.wait_for("[data-testid=key-input]").await;
    browser
        .fill("[data-testid=key-input]", &buildd.admin_key)
        .await;
    browser.click("[data-testid=connect-submit]").await;
    browser.wait_for("[data-testid=command-center]").await;
    browser
        .goto(&dashboard.url(&format!("/missions/{MISSION}?tab=pictures")))
        .await;
    // No spend in Buildd's answers: said, and no line or $0 drawn.
    text_with(
        &browser,
        "[data-testid=spend-picture] [data-testid=not-offered]",
        "carry no spend",
    )
    .await;
    assert!(browser.absent("[data-testid=spend-svg]").await);
    // Nor check-ins: the burn-up says it marks none.
    text_with(
        &browser,
        "[data-testid=burn-up-picture] [data-testid=not-offered]",
        "Check-ins are not marked",
    )
    .await;
    // Its two planning runs are on the timeline all the same.
    browser.wait_for("[data-testid=timeline-bar]").await;
    assert_eq!(browser.count("[data-testid=timeline-bar]").await, 2);
    browser.close().await;
}
