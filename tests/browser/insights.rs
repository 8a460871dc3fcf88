//! The Insights page over the demo's history and a workspace seeded here: each picture with
//! its table, a week read out by keyboard, the figures the same as buildd-core's over the
//! server's rows, the workspace filter's known answers, and on a hosted Buildd what its
//! answers lack said in place.

use crate::fixtures::api::{id_of, new_workspace};
use crate::fixtures::check::text_with;
use crate::fixtures::{opened, Page};
use buildd_core::insights::team::TeamInsights;
use buildd_core::insights::weekly::weekly;
use buildd_testkit::{Browser, RecordedBuildd, TestServer, ThroughUpstream, WorkerVerbs};
use serde_json::json;

const PICTURES: [&str; 5] = [
    "throughput-picture",
    "merge-time-picture",
    "cost-picture",
    "mission-spend-picture",
    "busy-picture",
];

/// A workspace "Insights seed" with one task failed this week; its id.
async fn seeded(server: &TestServer) -> String {
    seeded_as(server, "Insights seed").await
}

/// A workspace named `name` with one task failed this week; its id.
async fn seeded_as(server: &TestServer, name: &str) -> String {
    let ws = new_workspace(server, name, "acme/insights-seed").await;
    let body = json!({"title": "Break on purpose", "workspaceId": ws});
    let task = id_of(&server.admin("POST", "/api/tasks", Some(body)).await.1);
    let worker = server.claim_task(&task).await;
    let failed = json!({"status": "failed", "error": "It broke", "costUsd": 0.25});
    server.report_ok(&worker, failed).await;
    ws
}

#[tokio::test(flavor = "multi_thread")]
async fn every_picture_has_its_table_and_its_figures_are_cores() {
    let server = TestServer::start_demo().await;
    let ws = seeded(&server).await;
    let rows: TeamInsights = serde_json::from_value(server.get("/api/insights?weeks=12").await)
        .expect("the insights answer");
    let weeks = weekly(&rows.activity);
    let browser = opened(&server, Page::Insights).await;

    for picture in PICTURES {
        browser
            .wait_for(&format!("[data-testid={picture}-svg]"))
            .await;
        // Drawn only once the pictures' stylesheet is in, which makes a picture a block
        // as wide as its card: never unstyled, at its own width.
        let display = browser
            .run(&format!(
                "return getComputedStyle(document.querySelector('[data-testid={picture}-svg]')).display"
            ))
            .await;
        assert_eq!(display, "block", "{picture} drawn before its stylesheet");
        browser
            .click(&format!("[data-testid={picture}-table-toggle]"))
            .await;
        browser
            .wait_for(&format!("[data-testid={picture}-table]"))
            .await;
        assert!(browser.absent("[data-testid=not-offered]").await);
    }
    // A row a week, the same weeks as core's over the server's rows.
    let shown = browser
        .count("[data-testid=throughput-picture-table] tbody tr")
        .await;
    assert_eq!(shown, weeks.len());
    assert!(shown >= 1);
    let this = weeks.last().unwrap();
    let said = format!(
        "{} merged, {} failed, {} retried",
        this.team.merged, this.team.failed, this.team.retried
    );
    text_with(&browser, "[data-testid=throughput-picture-table]", &said).await;
    assert_eq!(
        browser
            .count("[data-testid=busy-picture-table] tbody tr")
            .await,
        24
    );

    // The seeded workspace alone: this week, one failed and nothing merged, $0.25 spent.
    browser
        .run(&format!(
            "const s = document.querySelector('[data-testid=insights-workspace]'); \
             s.value = '{ws}'; s.dispatchEvent(new Event('change'))"
        ))
        .await;
    text_with(
        &browser,
        "[data-testid=throughput-picture-table] tbody tr:last-child",
        "0 merged, 1 failed, 0 retried",
    )
    .await;
    text_with(
        &browser,
        "[data-testid=cost-picture-table] tbody tr:last-child",
        "nothing merged, $0.25 spent",
    )
    .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_workspace_name_keeps_the_page_within_a_phones_width() {
    const LONG: &str = "Payments platform reconciliation and settlement services (EU region)";
    let server = TestServer::start_demo().await;
    seeded_as(&server, LONG).await;
    let browser = opened(&server, Page::Insights).await;
    browser
        .client
        .set_window_size(375, 900)
        .await
        .expect("window size");
    browser
        .wait_text("[data-testid=insights-workspace]", |t| t.contains(LONG))
        .await;
    let overflow = browser
        .run("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        .await;
    assert!(
        overflow.as_i64().is_some_and(|o| o <= 0),
        "the workspace list widens the page by {overflow} px"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_week_is_read_out_by_keyboard_focus() {
    let server = TestServer::start_demo().await;
    seeded(&server).await;
    let browser = opened(&server, Page::Insights).await;
    let readout = "[data-testid=throughput-picture-readout]";
    browser
        .wait_for("[data-testid=throughput-picture-svg]")
        .await;
    assert_eq!(browser.texts(readout).await, [""]);
    browser
        .run("document.querySelector('[data-testid=throughput-picture-svg]').focus()")
        .await;
    browser.press(fantoccini::key::Key::End).await;
    let said = text_with(&browser, readout, " merged, ").await;
    assert!(said.contains("-W"), "{said}");
    assert_eq!(browser.count(".pic__focus").await, 1);
    browser.press(fantoccini::key::Key::Home).await;
    let first = text_with(&browser, readout, " retried").await;
    let weeks = browser
        .attr("[data-testid=throughput-picture-svg]", "data-columns")
        .await
        .unwrap();
    assert!(weeks == "1" || first != said, "{first} / {said}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_hosted_buildd_what_its_answers_lack_is_said_not_drawn() {
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
    browser.click("[data-testid=nav-insights]").await;
    browser.wait_for("[data-testid=insights-page]").await;
    text_with(
        &browser,
        "[data-testid=throughput-picture] [data-testid=not-offered]",
        "carry no merge times",
    )
    .await;
    text_with(
        &browser,
        "[data-testid=busy-picture] [data-testid=not-offered]",
        "carry no agent runs",
    )
    .await;
    // Failures and retries are drawn from its task list; spend and merge times are not.
    browser
        .wait_for("[data-testid=throughput-picture-svg]")
        .await;
    let series = browser
        .run("return [...document.querySelectorAll('[data-testid=throughput-picture-svg] .pic__bar')].map(b => b.dataset.series)")
        .await;
    assert!(
        !series.to_string().contains("merged"),
        "no merges drawn as zero: {series}"
    );
    for absent in [
        "cost-picture-svg",
        "merge-time-picture-svg",
        "busy-picture-svg",
    ] {
        assert!(
            browser.absent(&format!("[data-testid={absent}]")).await,
            "{absent}"
        );
    }
    browser.close().await;
}
