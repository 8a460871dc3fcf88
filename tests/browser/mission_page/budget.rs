//! Spend against budget on a mission's page, and Raise budget in place.

use crate::fixtures::api::{mission, spent_mission};
use crate::fixtures::check::{text_is, text_with};
use crate::fixtures::{opened, Page};
use buildd_testkit::TestServer;
use serde_json::Value;

const TEXT: &str = "[data-testid=budget-card] [data-testid=budget-text]";
const INPUT: &str = "[data-testid=budget-card] [data-testid=budget-input]";
const RAISE: &str = "[data-testid=budget-card] [data-testid=raise-budget-button]";
const ERROR: &str = "[data-testid=budget-card] [data-testid=budget-error]";
const WHAT_IF: &str = "[data-testid=budget-card] [data-testid=budget-what-if]";

/// Whether `css` is shown (not hidden by its class).
async fn shown(browser: &buildd_testkit::Browser, css: &str) -> bool {
    let script = format!("return document.querySelector({css:?})?.offsetParent !== null");
    browser.run(&script).await == Value::Bool(true)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_spent_budget_is_shown_with_both_figures_and_raised_in_place() {
    let server = TestServer::start_demo().await;
    let id = spent_mission(&server, "Search reindex").await;
    let browser = opened(&server, Page::Mission(&id)).await;

    // Both figures in words, the bar saying the same to a screen reader.
    text_is(&browser, TEXT, "$1.40 of $1.00 spent — $0.40 over").await;
    let label = browser.attr("[data-testid=budget-bar]", "aria-label").await;
    assert_eq!(label.as_deref(), Some("$1.40 of $1.00 spent — $0.40 over"));
    assert!(shown(&browser, "[data-testid=out-of-budget]").await);
    // Each task's cost beside its row (finished tasks are folded away: read as text).
    let costs = browser
        .run(
            "return [...document.querySelectorAll('[data-testid=task-cost]')]
                 .map(e => e.textContent)",
        )
        .await;
    let costs: Vec<String> = serde_json::from_value(costs).unwrap();
    assert_eq!(costs.len(), 2, "{costs:?}");
    assert!(costs.iter().all(|c| c.ends_with("$0.70")), "{costs:?}");

    // Not an amount: refused before sending.
    browser.fill(INPUT, "lots").await;
    browser.click(RAISE).await;
    text_with(&browser, ERROR, "not an amount in dollars").await;

    // What an amount would have done is said as it is typed: $1.20 would have stopped the
    // mission at its second report, after which nothing was spent.
    browser.fill(INPUT, "1.20").await;
    let replayed = text_with(&browser, WHAT_IF, "would have stopped the mission on").await;
    assert!(
        replayed.starts_with("What it would have done: A $1.20 budget")
            && replayed.ends_with("at $1.40 spent; it would have saved $0.00."),
        "{replayed}"
    );
    // Still below the spend: the server's reason, and the amount stays for another try.
    browser.click(RAISE).await;
    text_is(
        &browser,
        ERROR,
        "Not raised: costBudgetUsd must be above the $1.40 already spent",
    )
    .await;
    assert_eq!(browser.value(INPUT).await.as_deref(), Some("1.20"));
    assert_eq!(mission(&server, &id).await["status"], "budget_exhausted");

    // Above it: the mission is active again, and the page says so.
    browser.fill(INPUT, "5").await;
    text_is(
        &browser,
        WHAT_IF,
        "What it would have done: A $5.00 budget would not have stopped the mission: $1.40 spent.",
    )
    .await;
    browser.click(RAISE).await;
    text_is(&browser, TEXT, "$1.40 of $5.00 spent").await;
    let m = mission(&server, &id).await;
    assert_eq!(m["status"], "active");
    assert_eq!(m["costBudgetUsd"], "5.00");
    assert!(!shown(&browser, "[data-testid=out-of-budget]").await);
    assert_eq!(browser.value(INPUT).await.as_deref(), Some(""));
    assert_eq!(browser.texts(ERROR).await, [""]);
    browser.close().await;
}
