//! The feed tab: notes from the agents, guidance and answers from a person.

use crate::fixtures::api::{new_mission, notes_of_type, runner_note};
use crate::fixtures::check::{text_is, text_with, value_len};
use crate::fixtures::{opened, Page};
use buildd_testkit::TestServer;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn the_feed_shows_questions_and_takes_guidance_and_answers() {
    const GUIDANCE: &str = "[data-testid=guidance-input]";
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Caching layer").await;
    let status = runner_note(
        &server,
        &mission,
        json!({"type": "question", "title": "Which cache?", "defaultChoice": "in-process",
               "options": ["redis", "in-process"],
               "bodyText": "Pick **one**. <img src=x onerror=alert(1)>"}),
    )
    .await;
    assert_eq!(status, 201);
    let browser = opened(&server, Page::MissionFeed(&mission)).await;
    let c = &browser.client;
    let question = text_with(&browser, "[data-testid=note]", "Which cache?").await;
    // Its options answer it in one click; the agent's default is marked.
    assert_eq!(
        browser.texts("[data-testid=note-option]").await,
        ["redis", "in-process (default)"]
    );
    assert!(
        question.contains("<img src=x onerror=alert(1)>"),
        "raw HTML stays text: {question}"
    );
    assert!(browser.absent("[data-testid=feed] img").await);

    // A refused note keeps its text and says why.
    let long = "x".repeat(501);
    browser.fill(GUIDANCE, &long).await;
    browser.click("[data-testid=send-guidance]").await;
    text_is(
        &browser,
        "[data-testid=guidance-error]",
        "Not sent: title must be at most 500 characters (it has 501)",
    )
    .await;
    let kept = value_len(&browser, GUIDANCE).await;
    assert_eq!(kept, Some(501));

    // Guidance is Markdown: bold, code and web addresses read as such, nothing else.
    browser
        .fill(
            GUIDANCE,
            "Keep **Stripe** and `PayPal` working; see https://example.com/spec.",
        )
        .await;
    browser.click("[data-testid=send-guidance]").await;
    let sent = text_with(&browser, "[data-testid=note]", "Keep Stripe").await;
    assert!(
        sent.contains("Keep Stripe and PayPal working; see https://example.com/spec."),
        "{sent}"
    );
    let link = "[data-testid=note] a[href='https://example.com/spec']";
    let rel = browser.attr(link, "rel").await;
    assert_eq!(rel.as_deref(), Some("noopener noreferrer"));
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
    browser
        .type_into("[data-testid=reply-input]", "Redis")
        .await;
    browser.click("[data-testid=send-reply]").await;
    // The answer sits under its question.
    browser
        .wait_text("[data-testid=note-replies] [data-testid=note]", |t| {
            t.starts_with("REPLY") && t.contains("Redis")
        })
        .await;
    let page = notes_of_type(&server, &mission, "question").await;
    assert_eq!(page["notes"][0]["status"], "answered");
    // Both are a person's: the answer names its question.
    let replies = notes_of_type(&server, &mission, "reply").await;
    assert_eq!(replies["notes"][0]["authorType"], "user");
    assert_eq!(replies["notes"][0]["replyTo"], page["notes"][0]["id"]);
    let guidance = notes_of_type(&server, &mission, "guidance").await;
    assert_eq!(guidance["notes"][0]["authorType"], "user");

    // An option answers in one click.
    let second = json!({"type": "question", "title": "Evict per key or per tenant?",
                        "options": ["per key", "per tenant"], "defaultChoice": "per key"});
    assert_eq!(runner_note(&server, &mission, second).await, 201);
    text_with(&browser, "[data-testid=note]", "Evict per key").await;
    browser.click("[data-testid=note-option]").await;
    browser
        .wait_text("[data-testid=note-replies]", |t| t.contains("per key"))
        .await;
    let questions = notes_of_type(&server, &mission, "question").await;
    assert!(questions["notes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|q| q["status"] == "answered"));
    browser.close().await;
}

/// Posts updates numbered `numbers` to `mission`'s feed, as its runner would.
async fn post_updates(server: &TestServer, mission: &str, numbers: std::ops::RangeInclusive<u32>) {
    for i in numbers {
        let update = json!({"type": "update", "title": format!("Update {i}")});
        assert_eq!(runner_note(server, mission, update).await, 201);
    }
}

/// "Update {n}" for each of `numbers`, newest first, as the feed lists them.
fn updates(numbers: std::ops::RangeInclusive<u32>) -> Vec<String> {
    numbers.rev().map(|i| format!("Update {i}")).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_feed_reads_older_notes_on_request() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Long-running mission").await;
    post_updates(&server, &mission, 1..=60).await;
    let browser = opened(&server, Page::MissionFeed(&mission)).await;
    text_with(&browser, "[data-testid=note]", "Update 60").await;
    const TITLES: &str = "[data-testid=note] .note__title";
    let first = browser.texts(TITLES).await;
    assert_eq!(first.len(), 50);
    assert_eq!(first.last().map(String::as_str), Some("Update 11"));
    browser.click("[data-testid=older-notes]").await;
    browser
        .wait_text("[data-testid=feed]", |t| {
            t.contains("Update 1\n") || t.ends_with("Update 1")
        })
        .await;
    let all = browser.texts(TITLES).await;
    assert_eq!(all.len(), 60);
    assert_eq!(all, updates(1..=60));
    assert!(
        browser.absent("[data-testid=older-notes]").await,
        "nothing older is left to read"
    );

    // New notes push the newest page on; what slides out of it stays on screen.
    post_updates(&server, &mission, 61..=63).await;
    text_with(&browser, "[data-testid=note]", "Update 63").await;
    assert_eq!(browser.texts(TITLES).await, updates(1..=63));
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agents_markdown_is_drawn_and_its_html_and_foreign_links_stay_text() {
    let server = TestServer::start_demo().await;
    let mission = new_mission(&server, "Release notes").await;
    let body = "See [the spec](https://example.com/spec) and *this*.\n\n\
                1. build\n2. ship\n\n| check | state |\n| --- | --- |\n| test | **green** |\n\n\
                [steal](javascript:alert(1)) <script>alert(1)</script>";
    let status = runner_note(
        &server,
        &mission,
        json!({"type": "update", "title": "Shipped `v2`", "bodyText": body}),
    )
    .await;
    assert_eq!(status, 201);
    let browser = opened(&server, Page::MissionFeed(&mission)).await;
    let note = text_with(&browser, "[data-testid=note]", "Shipped").await;
    assert!(note.contains("<script>alert(1)</script>"), "{note}");
    assert!(note.contains("steal"), "{note}");
    const MD: &str = "[data-testid=feed] [data-testid=markdown]";
    assert_eq!(
        browser.count(&format!("{MD} a")).await,
        1,
        "only the web link"
    );
    assert_eq!(
        browser.attr(&format!("{MD} a"), "href").await.as_deref(),
        Some("https://example.com/spec")
    );
    assert_eq!(
        browser.attr(&format!("{MD} a"), "rel").await.as_deref(),
        Some("noopener noreferrer")
    );
    assert_eq!(browser.count(&format!("{MD} ol li")).await, 2);
    assert_eq!(browser.count(&format!("{MD} em")).await, 1);
    assert_eq!(browser.texts(&format!("{MD} th")).await, ["check", "state"]);
    assert_eq!(browser.texts(&format!("{MD} td strong")).await, ["green"]);
    assert!(browser.absent("[data-testid=feed] script").await);
    assert_eq!(browser.texts("[data-testid=note] code").await, ["v2"]);
    browser.close().await;
}
