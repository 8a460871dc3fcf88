//! The missions list: its workspace filter, and the progress bar of a card.

use crate::fixtures::api::{new_mission_with, new_task, new_workspace};
use crate::fixtures::check::{text_is, text_with};
use crate::fixtures::connected;
use buildd_testkit::{TestServer, WorkerVerbs};
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_workspace_filter_lives_in_the_url() {
    let server = TestServer::start_demo().await;
    let ws = new_workspace(&server, "billing", "acme/billing").await;
    new_mission_with(
        &server,
        json!({"title": "Invoice exports", "workspaceId": ws}),
    )
    .await;

    let browser = connected(&server).await;
    let c = &browser.client;
    assert_eq!(browser.count("[data-testid=mission-card]").await, 7);

    let select = c
        .find(Locator::Css("[data-testid=workspace-filter]"))
        .await
        .unwrap();
    select.select_by_value(&ws).await.unwrap();
    text_is(&browser, "[data-testid=active-count]", "1 active").await;
    let url = c.current_url().await.unwrap();
    assert_eq!(url.query(), Some(format!("workspace={ws}").as_str()));
    let shown = browser.texts("[data-testid=mission-card]").await;
    assert_eq!(shown.len(), 1);
    assert!(shown[0].contains("Invoice exports"));

    // The filter is part of the address: a reload keeps it.
    c.refresh().await.unwrap();
    text_is(&browser, "[data-testid=active-count]", "1 active").await;
    assert_eq!(browser.count("[data-testid=mission-card]").await, 1);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cards_progress_bar_spans_the_card_with_segments_sized_by_their_counts() {
    let server = TestServer::start_demo().await;
    let id = new_mission_with(
        &server,
        json!({"title": "Wide bar", "orchestrationMode": "manual", "isHeartbeat": false}),
    )
    .await;
    let mut tasks = Vec::new();
    for n in 0..8 {
        tasks.push(new_task(&server, &format!("Step {n}"), Some(&id)).await);
    }
    for t in &tasks[..6] {
        server.complete_task(t, json!({"summary": "done"})).await;
    }
    let browser = connected(&server).await;
    let card = format!("[data-testid=mission-card][data-mission-id='{id}']");
    let bar = format!("{card} [data-testid=progress-bar]");
    browser.wait_for(&bar).await;
    assert_eq!(
        browser.attr(&bar, "role").await.as_deref(),
        Some("progressbar")
    );
    assert_eq!(
        browser.attr(&bar, "aria-valuenow").await.as_deref(),
        Some("75")
    );
    text_is(
        &browser,
        &format!("{card} [data-testid=progress-count]"),
        "75% · 6/8",
    )
    .await;
    // Full width of the card, and each state's segment as wide as its share.
    let geometry = browser
        .run(&format!(
            "const card = document.querySelector(\"{card}\").getBoundingClientRect();
             const bar = document.querySelector(\"{bar}\").getBoundingClientRect();
             const seg = s => document.querySelector(\"{bar} .seg--\" + s).getBoundingClientRect().width;
             return [bar.width / card.width, seg('solid') / seg('empty')];"
        ))
        .await;
    let share = geometry[0].as_f64().unwrap();
    let ratio = geometry[1].as_f64().unwrap();
    assert!(share > 0.6, "the bar takes {share:.2} of the card");
    assert!(
        (2.5..3.5).contains(&ratio),
        "6 done against 2 open: {ratio:.2}"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_list_is_searched_and_sorted_in_the_address_one_dense_row_a_mission() {
    let server = TestServer::start_demo().await;
    let browser = connected(&server).await;
    let c = &browser.client;
    // The demo's missions fit in little more than a screen, a row each across the width.
    let height = browser
        .run("return document.documentElement.scrollHeight")
        .await;
    assert!(
        height.as_f64().unwrap() < 1300.0,
        "the list is {height} px tall"
    );
    let widths = browser
        .run(
            "const list = document.querySelector('.mission-rows').getBoundingClientRect().width;
             return [...document.querySelectorAll('[data-testid=mission-card]')]
               .map(c => c.getBoundingClientRect().width / list);",
        )
        .await;
    for share in widths.as_array().unwrap() {
        assert!(
            share.as_f64().unwrap() > 0.99,
            "a row spans the list: {widths}"
        );
    }

    browser
        .type_into("[data-testid=mission-search]", "checkout")
        .await;
    browser
        .wait_text("[data-testid=active-count]", |t| t == "1 active")
        .await;
    let shown = browser
        .texts("[data-testid=mission-card] .mission-card__title")
        .await;
    assert_eq!(shown, ["Checkout redesign"]);
    assert_eq!(c.current_url().await.unwrap().query(), Some("q=checkout"));
    // Words are matched in the goal too, and all of them must be there.
    browser
        .fill("[data-testid=mission-search]", "payment provider")
        .await;
    browser
        .wait_text("[data-testid=active-count]", |t| t == "1 active")
        .await;
    browser
        .fill("[data-testid=mission-search]", "payment zebra")
        .await;
    text_with(&browser, "main", "No missions in this view.").await;
    browser.fill("[data-testid=mission-search]", "").await;
    browser.wait_for("[data-testid=mission-card]").await;

    let sort = c
        .find(Locator::Css("[data-testid=mission-sort]"))
        .await
        .unwrap();
    sort.select_by_value("title").await.unwrap();
    // The choice goes to the address.
    let mut query = None;
    for _ in 0..100 {
        query = c.current_url().await.unwrap().query().map(str::to_string);
        if query.as_deref() == Some("sort=title") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(query.as_deref(), Some("sort=title"));
    c.refresh().await.unwrap();
    browser.wait_for("[data-testid=mission-card]").await;
    assert_eq!(
        browser.value("[data-testid=mission-sort]").await.as_deref(),
        Some("title")
    );
    // Within each group, by title.
    let groups = browser
        .run(
            "return [...document.querySelectorAll('section.group')].map(g =>
               [...g.querySelectorAll('.mission-card__title')].map(t => t.textContent.toLowerCase()));",
        )
        .await;
    for group in groups.as_array().unwrap() {
        let titles: Vec<&str> = group
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t.as_str())
            .collect();
        let mut sorted = titles.clone();
        sorted.sort();
        assert_eq!(titles, sorted, "{groups}");
    }
    browser.close().await;
}
