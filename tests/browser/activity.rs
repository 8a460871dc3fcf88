//! Activity, as a lead reads the team's work: every task, missions or not, narrowed by
//! status, mission (or none), mode and days, searched, grouped, paged with Load more, each
//! retry under its task; a view shared as a link; New task with a mission or none; Stop on
//! a running row; and no serious accessibility violation in either theme.

use crate::fixtures::api::{id_of, new_mission_with, new_task, new_workspace, organizer_run};
use crate::fixtures::check::{text_is, text_with};
use crate::fixtures::{open, Page};
use buildd_server::db::sql;
use buildd_testkit::{Browser, TestServer, WorkerVerbs};
use serde_json::{json, Value};

/// A team with one workspace and nothing else, so every task listed is the test's own.
async fn team() -> TestServer {
    let server = TestServer::start_empty().await;
    new_workspace(&server, "storefront", "acme/storefront").await;
    server
}

/// A manual mission `title` (it plans only when Run is pressed); its id.
async fn quiet_mission(server: &TestServer, title: &str) -> String {
    let body = json!({"title": title, "orchestrationMode": "manual", "isHeartbeat": false});
    new_mission_with(server, body).await
}

/// A browser connected by the dashboard link that went to Activity by its header link,
/// then to Activity with `query` when one is given.
async fn on_activity(server: &TestServer, query: &str) -> Browser {
    let browser = Browser::start(1280).await;
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=command-center]").await;
    browser.click("[data-testid=nav-activity]").await;
    browser.wait_for("[data-testid=activity-count]").await;
    assert_eq!(
        browser
            .attr("[data-testid=nav-activity]", "aria-current")
            .await
            .as_deref(),
        Some("page")
    );
    if !query.is_empty() {
        open(&browser, server, Page::Activity(query)).await;
    }
    browser
}

/// The titles of the rows listed now, in page order.
const TITLES: &str = "return [...document.querySelectorAll('[data-testid=activity-title]')]
    .map(e => e.textContent.trim());";

/// Waits until the rows listed are `expected`, in any order; returns them in page order.
async fn lists(browser: &Browser, expected: &[&str]) -> Vec<String> {
    let mut want: Vec<&str> = expected.to_vec();
    want.sort();
    let shown = browser
        .wait_answer(TITLES, |titles| {
            let mut titles: Vec<&str> = titles
                .as_array()
                .map(|t| t.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            titles.sort();
            titles == want
        })
        .await;
    serde_json::from_value(shown).expect("titles")
}

/// The address's query now.
async fn query_now(browser: &Browser) -> String {
    let url = browser.client.current_url().await.expect("the address");
    url.query().unwrap_or_default().to_string()
}

/// Sets the date field `css` to `day` as a date picker does (its `change`).
async fn pick_day(browser: &Browser, css: &str, day: &str) {
    browser
        .client
        .execute(
            "const f = document.querySelector(arguments[0]); f.value = arguments[1]; \
             f.dispatchEvent(new Event('change', {bubbles: true}));",
            vec![css.into(), day.into()],
        )
        .await
        .unwrap_or_else(|e| panic!("picking {day} in {css}: {e}"));
}

/// Sets `task`'s last change to `at`, as if it had last moved then.
async fn changed_at(server: &TestServer, task: &str, at: &str) {
    let mut tx = server.db.write().await.unwrap();
    sql::query("UPDATE tasks SET updated_at = ? WHERE id = ?")
        .bind(at)
        .bind(task)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// The row of task `id`.
fn row(id: &str) -> String {
    format!("[data-testid=activity-row][data-task-id=\"{id}\"]")
}

#[tokio::test(flavor = "multi_thread")]
async fn filters_narrow_the_list_by_status_mission_mode_and_day_and_live_in_the_address() {
    let server = team().await;
    let mission = quiet_mission(&server, "Faster builds").await;
    let cache = new_task(&server, "Cache the toolchain", Some(&mission)).await;
    let logs = new_task(&server, "Rotate the logs", None).await;
    let flaky = new_task(&server, "Fix the flaky test", None).await;
    server.fail_task(&flaky, "It still flakes").await;
    let plan = organizer_run(&server, &mission).await;
    let plan_title = server.get(&format!("/api/tasks/{plan}")).await["title"]
        .as_str()
        .expect("the run's title")
        .to_string();
    changed_at(&server, &logs, "2020-01-10T09:00:00.000Z").await;
    let all = [
        "Cache the toolchain",
        "Rotate the logs",
        "Fix the flaky test",
        plan_title.as_str(),
    ];

    let browser = on_activity(&server, "").await;
    lists(&browser, &all).await;
    text_is(&browser, "[data-testid=activity-count]", "4 of 4 tasks").await;
    // Each row names its mission (a link), or says it has none, and its workspace.
    let link = format!("{} [data-testid=activity-mission-link]", row(&cache));
    text_is(&browser, &link, "Faster builds").await;
    assert_eq!(
        browser.attr(&link, "href").await,
        Some(format!("/missions/{mission}"))
    );
    let loose = row(&logs);
    text_is(
        &browser,
        &format!("{loose} [data-testid=activity-no-mission]"),
        "No mission",
    )
    .await;
    text_is(
        &browser,
        &format!("{loose} [data-testid=activity-workspace-name]"),
        "storefront",
    )
    .await;
    assert_eq!(
        browser
            .attr(&format!("{loose} [data-testid=activity-title]"), "href")
            .await,
        Some(format!("/tasks/{logs}"))
    );

    // Status.
    browser
        .fill("[data-testid=activity-status]", "failed")
        .await;
    lists(&browser, &["Fix the flaky test"]).await;
    assert_eq!(query_now(&browser).await, "status=failed");
    text_with(&browser, &row(&flaky), "failed").await;
    // Unfinished: the pending ones, not what failed.
    browser
        .fill("[data-testid=activity-status]", "active")
        .await;
    lists(
        &browser,
        &[
            "Cache the toolchain",
            "Rotate the logs",
            plan_title.as_str(),
        ],
    )
    .await;
    browser.fill("[data-testid=activity-status]", "").await;
    lists(&browser, &all).await;

    // No mission, then the mission.
    browser.fill("[data-testid=activity-mission]", "none").await;
    lists(&browser, &["Rotate the logs", "Fix the flaky test"]).await;
    assert_eq!(query_now(&browser).await, "mission=none");
    browser
        .fill("[data-testid=activity-mission]", &mission)
        .await;
    lists(&browser, &["Cache the toolchain", plan_title.as_str()]).await;
    // Mode, with the mission: its organizer run only.
    browser
        .fill("[data-testid=activity-mode]", "planning")
        .await;
    lists(&browser, &[plan_title.as_str()]).await;
    assert_eq!(
        query_now(&browser).await,
        format!("mission={mission}&mode=planning")
    );
    browser
        .fill("[data-testid=activity-mode]", "execution")
        .await;
    lists(&browser, &["Cache the toolchain"]).await;
    browser.click("[data-testid=activity-clear]").await;
    lists(&browser, &all).await;

    // Days: what last changed in January 2020.
    pick_day(&browser, "[data-testid=activity-since]", "2020-01-01").await;
    pick_day(&browser, "[data-testid=activity-until]", "2020-01-31").await;
    lists(&browser, &["Rotate the logs"]).await;
    assert_eq!(
        query_now(&browser).await,
        "since=2020-01-01&until=2020-01-31"
    );
    // A day runs to its end; before it, nothing.
    pick_day(&browser, "[data-testid=activity-until]", "2020-01-10").await;
    lists(&browser, &["Rotate the logs"]).await;
    pick_day(&browser, "[data-testid=activity-until]", "2020-01-09").await;
    text_is(
        &browser,
        "[data-testid=empty] .panel-state__title",
        "No task matches.",
    )
    .await;
    text_is(&browser, "[data-testid=activity-count]", "0 of 0 tasks").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_search_finds_title_words_and_a_task_by_its_id() {
    let server = team().await;
    new_task(&server, "Rotate the logs", None).await;
    let flaky = new_task(&server, "Fix the flaky test", None).await;
    new_task(&server, "Fix the login page", None).await;
    let browser = on_activity(&server, "").await;
    lists(
        &browser,
        &[
            "Rotate the logs",
            "Fix the flaky test",
            "Fix the login page",
        ],
    )
    .await;
    browser
        .type_into("[data-testid=activity-search]", "fix the")
        .await;
    lists(&browser, &["Fix the flaky test", "Fix the login page"]).await;
    assert_eq!(query_now(&browser).await, "q=fix%20the");
    // What was typed stays as typed, its space too.
    assert_eq!(
        browser
            .value("[data-testid=activity-search]")
            .await
            .as_deref(),
        Some("fix the")
    );
    browser
        .type_into("[data-testid=activity-search]", " FLAKY")
        .await;
    lists(&browser, &["Fix the flaky test"]).await;
    browser.fill("[data-testid=activity-search]", &flaky).await;
    lists(&browser, &["Fix the flaky test"]).await;
    browser
        .fill("[data-testid=activity-search]", "nothing like it")
        .await;
    text_is(&browser, "[data-testid=activity-count]", "0 of 0 tasks").await;
    browser.close().await;
}

/// The groups shown now: each one's name and its rows' titles, in page order.
const GROUPS: &str = "return [...document.querySelectorAll('[data-testid=activity-group]')]
    .map(g => [g.dataset.group, [...g.querySelectorAll('[data-testid=activity-title]')]
    .map(e => e.textContent.trim())]);";

async fn groups_are(browser: &Browser, expected: Value) {
    browser.wait_answer(GROUPS, |g| *g == expected).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_list_groups_by_status_and_by_mission() {
    let server = team().await;
    let builds = quiet_mission(&server, "Faster builds").await;
    let search = quiet_mission(&server, "Search speed").await;
    let cache = new_task(&server, "Cache the toolchain", Some(&builds)).await;
    new_task(&server, "Rotate the logs", None).await;
    new_task(&server, "Index the catalog", Some(&search)).await;
    let flaky = new_task(&server, "Fix the flaky test", Some(&builds)).await;
    server.fail_task(&flaky, "It still flakes").await;
    server
        .complete_task(&cache, json!({"summary": "Cached"}))
        .await;

    let browser = on_activity(&server, "").await;
    browser
        .fill("[data-testid=activity-grouping]", "status")
        .await;
    // In the order work moves; newest change first within each.
    groups_are(
        &browser,
        json!([
            ["pending", ["Index the catalog", "Rotate the logs"]],
            ["completed", ["Cache the toolchain"]],
            ["failed", ["Fix the flaky test"]],
        ]),
    )
    .await;
    assert_eq!(query_now(&browser).await, "group=status");
    browser
        .fill("[data-testid=activity-grouping]", "mission")
        .await;
    // Missions as their newest task comes, the tasks of none last.
    groups_are(
        &browser,
        json!([
            [
                "Faster builds",
                ["Cache the toolchain", "Fix the flaky test"]
            ],
            ["Search speed", ["Index the catalog"]],
            ["No mission", ["Rotate the logs"]],
        ]),
    )
    .await;
    text_with(
        &browser,
        "[data-testid=activity-group][data-group='Faster builds'] [data-testid=activity-group-title]",
        "2",
    )
    .await;
    browser.fill("[data-testid=activity-grouping]", "").await;
    browser
        .wait_answer(GROUPS, |g| g.as_array().is_some_and(|g| g.len() == 1))
        .await;
    assert!(browser.absent("[data-testid=activity-group-title]").await);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retry_is_listed_under_its_task() {
    let server = team().await;
    let flaky = new_task(&server, "Fix the flaky test", None).await;
    server.fail_task(&flaky, "It still flakes").await;
    let retry = new_task(&server, "Fix the flaky test, again", None).await;
    let mut tx = server.db.write().await.unwrap();
    sql::query("UPDATE tasks SET task_class = 'attempt', parent_task_id = ? WHERE id = ?")
        .bind(&flaky)
        .bind(&retry)
        .execute(&mut tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    new_task(&server, "Rotate the logs", None).await;

    let browser = on_activity(&server, "").await;
    lists(&browser, &["Fix the flaky test", "Rotate the logs"]).await;
    let attempt = format!(
        "{} [data-testid=activity-attempt][data-task-id=\"{retry}\"]",
        row(&flaky)
    );
    text_with(&browser, &attempt, "Attempt 2").await;
    text_with(&browser, &attempt, "pending").await;
    assert_eq!(
        browser.attr(&format!("{attempt} a"), "href").await,
        Some(format!("/tasks/{retry}"))
    );
    assert_eq!(browser.count("[data-testid=activity-attempt]").await, 1);
    assert!(browser.absent(&row(&retry)).await);
    text_is(&browser, "[data-testid=activity-count]", "2 of 2 tasks").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn load_more_reads_the_next_page_past_the_first_fifty() {
    let server = team().await;
    for n in 1..=57 {
        new_task(&server, &format!("Task {n:02}"), None).await;
    }
    let browser = on_activity(&server, "").await;
    text_is(&browser, "[data-testid=activity-count]", "50 of 57 tasks").await;
    let first = browser.run(TITLES).await;
    let first: Vec<String> = serde_json::from_value(first).unwrap();
    // Newest first: the last one filed leads, the oldest seven wait for the next page.
    assert_eq!(first.len(), 50);
    assert_eq!(first[0], "Task 57");
    assert_eq!(first[49], "Task 08");
    browser.click("[data-testid=activity-more]").await;
    text_is(&browser, "[data-testid=activity-count]", "57 of 57 tasks").await;
    let all: Vec<String> = serde_json::from_value(browser.run(TITLES).await).unwrap();
    let expected: Vec<String> = (1..=57).rev().map(|n| format!("Task {n:02}")).collect();
    assert_eq!(all, expected);
    // Nothing more to read.
    browser.wait_for_absent("[data-testid=activity-more]").await;
    // A filter starts from its first page again.
    browser
        .fill("[data-testid=activity-search]", "Task 0")
        .await;
    text_is(&browser, "[data-testid=activity-count]", "9 of 9 tasks").await;
    assert!(browser.absent("[data-testid=activity-more]").await);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_shared_link_opens_on_the_same_view() {
    let server = team().await;
    let mission = quiet_mission(&server, "Faster builds").await;
    let flaky = new_task(&server, "Fix the flaky test", None).await;
    let other = new_task(&server, "Fix the flaky deploy", Some(&mission)).await;
    new_task(&server, "Fix the login page", None).await;
    for t in [&flaky, &other] {
        server.fail_task(t, "Still flaky").await;
    }
    let shared = "?status=failed&mission=none&q=flaky&group=status";
    let browser = on_activity(&server, shared).await;
    lists(&browser, &["Fix the flaky test"]).await;
    assert_eq!(query_now(&browser).await, &shared[1..]);
    // The controls show the view.
    for (control, value) in [
        ("activity-status", "failed"),
        ("activity-mission", "none"),
        ("activity-search", "flaky"),
        ("activity-grouping", "status"),
        ("activity-mode", ""),
    ] {
        assert_eq!(
            browser
                .value(&format!("[data-testid={control}]"))
                .await
                .as_deref(),
            Some(value),
            "{control}"
        );
    }
    assert_eq!(browser.count("[data-testid=activity-group]").await, 1);
    assert_eq!(
        browser
            .attr("[data-testid=activity-group]", "data-group")
            .await
            .as_deref(),
        Some("failed")
    );
    // A reload shows it again.
    browser.client.refresh().await.unwrap();
    lists(&browser, &["Fix the flaky test"]).await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_is_filed_from_activity_on_a_mission_or_on_none() {
    let server = team().await;
    let mission = quiet_mission(&server, "Faster builds").await;
    new_task(&server, "Rotate the logs", None).await;
    let browser = on_activity(&server, "").await;
    lists(&browser, &["Rotate the logs"]).await;

    // On the mission picked.
    browser.click("[data-testid=open-new-task]").await;
    browser
        .fill("[data-testid=new-task-mission]", &mission)
        .await;
    browser.wait_for("[data-testid=new-task-workspace]").await;
    assert!(
        browser
            .absent(".field:not(.hidden) > [data-testid=new-task-workspace]")
            .await,
        "a mission's task goes to the mission's workspace"
    );
    browser
        .fill("[data-testid=new-task-title]", "Cache the toolchain")
        .await;
    browser.click("[data-testid=create-task]").await;
    text_with(
        &browser,
        "[data-testid=task-created]",
        "Cache the toolchain",
    )
    .await;
    lists(&browser, &["Rotate the logs", "Cache the toolchain"]).await;
    let tasks = server.get("/api/tasks").await["tasks"].clone();
    let filed = tasks
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"] == "Cache the toolchain")
        .cloned()
        .expect("filed");
    assert_eq!(filed["missionId"], mission.as_str());
    let id = id_of(&filed);
    text_is(
        &browser,
        &format!("{} [data-testid=activity-mission-link]", row(&id)),
        "Faster builds",
    )
    .await;

    // On none: a workspace picked instead.
    browser.click("[data-testid=open-new-task]").await;
    assert_eq!(
        browser
            .value("[data-testid=new-task-mission]")
            .await
            .as_deref(),
        Some("")
    );
    browser
        .wait_for(".field:not(.hidden) > [data-testid=new-task-workspace]")
        .await;
    browser
        .fill("[data-testid=new-task-title]", "Tidy the README")
        .await;
    browser.click("[data-testid=create-task]").await;
    text_with(&browser, "[data-testid=task-created]", "Tidy the README").await;
    lists(
        &browser,
        &["Rotate the logs", "Cache the toolchain", "Tidy the README"],
    )
    .await;
    let tasks = server.get("/api/tasks").await["tasks"].clone();
    let filed = tasks
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"] == "Tidy the README")
        .cloned()
        .expect("filed");
    assert!(filed["missionId"].is_null(), "{filed}");
    text_is(
        &browser,
        &format!("{} [data-testid=activity-no-mission]", row(&id_of(&filed))),
        "No mission",
    )
    .await;

    // Opened on a mission's view, the form starts on that mission.
    open(
        &browser,
        &server,
        Page::Activity(&format!("?mission={mission}")),
    )
    .await;
    browser.click("[data-testid=open-new-task]").await;
    assert_eq!(
        browser.value("[data-testid=new-task-mission]").await,
        Some(mission.clone())
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_running_row_is_stopped_in_place_and_says_who_stopped_it() {
    let server = team().await;
    let task = new_task(&server, "Profile the build", None).await;
    let worker = server.claim_task(&task).await;
    server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    let idle = new_task(&server, "Rotate the logs", None).await;
    let browser = on_activity(&server, "").await;
    let running = row(&task);
    browser
        .wait_for(&format!("{running} [data-testid=stop-task]"))
        .await;
    // Only a running row offers Stop.
    assert!(
        browser
            .absent(&format!("{} [data-testid=stop-task]", row(&idle)))
            .await
    );
    browser
        .click(&format!("{running} [data-testid=stop-task]"))
        .await;
    browser
        .fill(
            &format!("{running} [data-testid=stop-reason]"),
            "Not needed",
        )
        .await;
    browser
        .click(&format!("{running} [data-testid=stop-confirm]"))
        .await;
    text_with(
        &browser,
        &format!("{running} [data-testid=activity-stopped]"),
        "Stopped by",
    )
    .await;
    text_with(&browser, &running, "cancelled").await;
    assert_eq!(
        server.get(&format!("/api/tasks/{task}")).await["status"],
        "cancelled"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn activity_has_no_serious_accessibility_violation_in_either_theme() {
    let server = team().await;
    let mission = quiet_mission(&server, "Faster builds").await;
    let running = new_task(&server, "Profile the build", Some(&mission)).await;
    let worker = server.claim_task(&running).await;
    server
        .report_ok(&worker, json!({"status": "running"}))
        .await;
    let flaky = new_task(&server, "Fix the flaky test", None).await;
    server.fail_task(&flaky, "It still flakes").await;
    let browser = on_activity(&server, "").await;
    for theme in ["light", "dark"] {
        browser
            .run(&format!("localStorage.setItem('buildd.theme', '{theme}')"))
            .await;
        open(&browser, &server, Page::Activity("?group=mission")).await;
        browser.wait_for("[data-testid=stop-task]").await;
        lists(&browser, &["Profile the build", "Fix the flaky test"]).await;
        // With the New task form open too.
        browser.click("[data-testid=open-new-task]").await;
        browser.wait_for("[data-testid=new-task-mission]").await;
        let shown = browser
            .run("return document.documentElement.getAttribute('data-theme')")
            .await;
        assert_eq!(shown, theme);
        let serious: Vec<String> = browser
            .axe()
            .await
            .into_iter()
            .filter(|v| v.is_serious())
            .map(|v| v.to_string())
            .collect();
        assert!(
            serious.is_empty(),
            "Activity ({theme}): {}",
            serious.join("\n")
        );
    }
    browser.close().await;
}
