//! What the browser downloads: the command center's first rows from the main module alone,
//! what they do not need once they show, each later page's code on its first visit and
//! kept for the next.

use buildd_testkit::{is_chunk, Browser, TestServer};

/// The wasm files the page has fetched, by name, in the order asked.
async fn wasm_fetched(browser: &Browser) -> Vec<String> {
    let names = browser
        .run(
            "return performance.getEntriesByType('resource')
               .map(e => new URL(e.name).pathname.slice(1))
               .filter(p => p.endsWith('.wasm'));",
        )
        .await;
    serde_json::from_value(names).expect("file names")
}

/// Notes when the first row shows (`window.firstRowAt`), told of every change to the page
/// as it happens, whether or not frames are being drawn; true when the row already shows,
/// too late to tell what came before it.
const WATCH_FIRST_ROW: &str = r#"
function check() {
  if (!document.querySelector('[data-testid=command-row]')) return false;
  window.firstRowAt = performance.now();
  return true;
}
if (check()) return true;
const seen = new MutationObserver(() => { if (check()) seen.disconnect(); });
seen.observe(document.documentElement, { childList: true, subtree: true });
return false;
"#;

/// Once the first row showed, the wasm files asked for before it and after; else null.
const AROUND_FIRST_ROW: &str = r#"
const at = window.firstRowAt;
if (at === undefined) return null;
const wasm = performance.getEntriesByType('resource').filter(e => e.name.endsWith('.wasm'));
const name = e => new URL(e.name).pathname.slice(1);
return [wasm.filter(e => e.startTime < at).map(name), wasm.filter(e => e.startTime >= at).map(name)];
"#;

/// How long the first row may take: a machine busy with the rest of the suite is slow.
const FIRST_ROW_WITHIN: std::time::Duration = std::time::Duration::from_secs(120);

/// A copy of the dashboard without the chunk files named `prefix…`, as after a deploy that
/// dropped them or a network that failed for them; the dropped files.
fn dist_without(prefix: &str) -> (tempfile::TempDir, Vec<std::path::PathBuf>) {
    let dist = tempfile::tempdir().expect("temp dir");
    let mut dropped = Vec::new();
    for entry in std::fs::read_dir(buildd_testkit::dist_dir()).expect("dist") {
        let entry = entry.expect("a dist file");
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with(prefix) {
            dropped.push(entry.path());
            continue;
        }
        std::fs::copy(entry.path(), dist.path().join(&name)).expect("copied");
    }
    assert!(
        !dropped.is_empty(),
        "the split build names a chunk {prefix}"
    );
    (dist, dropped)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_command_center_loads_alone_and_each_page_fetches_its_code_on_first_visit() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(1366).await;
    // Connect by the link first: once its key is checked, Connect loads the page afresh.
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=command-row]").await;
    // A load of the command center, watched from before its rows show.
    let mut loads = 0;
    loop {
        loads += 1;
        browser.goto(&server.url("/")).await;
        let late = browser.run(WATCH_FIRST_ROW).await;
        if late == serde_json::Value::Bool(false) {
            break;
        }
        assert!(
            loads < 5,
            "the rows showed before the page could be watched, {loads} times"
        );
    }
    let waited = std::time::Instant::now();
    let around = loop {
        let around = browser.run(AROUND_FIRST_ROW).await;
        if !around.is_null() {
            break Ok(around);
        }
        if waited.elapsed() > FIRST_ROW_WITHIN {
            break Err(format!("none within {} s", FIRST_ROW_WITHIN.as_secs()));
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let around = match around {
        Ok(around) => around,
        // What the page shows instead says why.
        Err(e) => {
            let shown = browser
                .run(
                    "return [location.href, document.body.innerText.slice(0, 600), \
                     performance.getEntriesByType('resource').map(r => \
                       [new URL(r.name).pathname, Math.round(r.startTime), Math.round(r.duration)])];",
                )
                .await;
            // Whether the browser still reaches the server: a request of its own that does
            // not answer either points at the browser's connections, one that does at the page.
            let reached = browser
                .client
                .execute_async(
                    "const done = arguments[arguments.length - 1];
                     const stop = new AbortController();
                     setTimeout(() => stop.abort(), 10000);
                     fetch('/api/missions/capabilities', { signal: stop.signal, cache: 'no-store' })
                       .then(r => done('answered ' + r.status), e => done('failed: ' + e));",
                    vec![],
                )
                .await
                .map(|v| v.to_string())
                .unwrap_or_else(|e| format!("the script did not end: {e}"));
            // Whether the server answers the same read outside the browser.
            let direct = tokio::time::timeout(
                std::time::Duration::from_secs(10),
                server.admin("GET", "/api/missions", None),
            )
            .await
            .map(|answer| answer.0.to_string())
            .unwrap_or_else(|_| "no answer within 10 s".into());
            let stopped = browser.stopped().await;
            panic!(
                "no row showed ({e}); the page: {shown}; a fetch from the page: {reached}; \
                 GET /api/missions directly: {direct}{stopped}"
            );
        }
    };
    let (first, after): (Vec<String>, Vec<String>) =
        serde_json::from_value(around).expect("file names");
    assert_eq!(
        first.len(),
        1,
        "one wasm module before the first row: {first:?}"
    );
    assert!(first[0].ends_with("_bg.wasm"), "{first:?}");
    assert!(after.iter().all(|n| is_chunk(n)), "{after:?}");
    // The later pages' styles are not the command center's to fetch.
    let pages_css = "return document.querySelectorAll(\"link[href='/pages.css']\").length;";
    assert_eq!(
        browser.run(pages_css).await,
        0,
        "pages.css on the command center"
    );
    // "Waiting on you" comes with its own code, once the rows show.
    browser.wait_for("[data-testid=waiting-approve]").await;
    let loaded = wasm_fetched(&browser).await;
    assert!(
        loaded.iter().any(|n| n.contains("after_first_rows")),
        "the chunk of what follows the rows: {loaded:?}"
    );

    browser.click("[data-testid=nav-missions]").await;
    browser.wait_for("[data-testid=mission-card]").await;
    // The list came with its styles: a card is laid out by pages.css, not as a plain box.
    assert_eq!(browser.run(pages_css).await, 1, "pages.css linked once");
    let display = browser
        .run("return getComputedStyle(document.querySelector('[data-testid=mission-card]')).display;")
        .await;
    assert!(
        display == "grid" || display == "flex",
        "a mission card shown before its styles: display {display}"
    );
    // The nav marks where you are.
    let marked = |testid: &'static str| {
        let browser = &browser;
        async move {
            browser
                .attr(&format!("[data-testid={testid}]"), "aria-current")
                .await
        }
    };
    assert_eq!(marked("nav-missions").await.as_deref(), Some("page"));
    assert_eq!(marked("nav-command").await, None);
    let list = wasm_fetched(&browser).await;
    let list_chunks: Vec<&String> = list.iter().filter(|n| is_chunk(n)).collect();
    assert!(
        list_chunks
            .iter()
            .any(|n| n.starts_with("split_missions_page")),
        "the mission list's own chunk: {list:?}"
    );

    browser.click("[data-testid=mission-card] a").await;
    browser.wait_for("[data-testid=mission-title]").await;
    // A mission is under the missions.
    assert_eq!(marked("nav-missions").await.as_deref(), Some("page"));
    assert_eq!(marked("nav-workspaces").await, None);
    let mission = wasm_fetched(&browser).await;
    assert!(
        mission[list.len()..]
            .iter()
            .any(|n| n.starts_with("split_mission_page")),
        "the mission page's chunk, after the list's: {mission:?}"
    );

    // Back on the list, nothing is fetched again. (The pictures' chunks, fetched ahead once
    // the mission page has settled, may come in after the mission page's.)
    browser.click("[data-testid=nav-missions]").await;
    browser.wait_for("[data-testid=mission-card]").await;
    let back = wasm_fetched(&browser).await;
    assert_eq!(back[..mission.len()], mission[..]);
    let mut once = back.clone();
    once.sort();
    once.dedup();
    assert_eq!(once.len(), back.len(), "a chunk fetched twice: {back:?}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deep_link_to_a_lazy_page_renders_it() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(1366).await;
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=command-row]").await;
    let href = browser
        .attr("[data-testid=command-row] a", "href")
        .await
        .expect("a mission link");
    // A reload at the mission's address: its chunks come before anything else renders.
    browser.goto(&server.url(&href)).await;
    browser.wait_for("[data-testid=mission-title]").await;
    let fetched = wasm_fetched(&browser).await;
    assert!(
        fetched.iter().any(|n| n.starts_with("split_mission_page")),
        "{fetched:?}"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_chunk_that_does_not_load_is_told_and_the_rows_stay() {
    // The dashboard without the chunk that follows the first rows.
    let (dist, dropped) = dist_without("split_after_first_rows");
    let server = TestServer::start_demo_serving(dist.path()).await;
    let browser = Browser::start(1366).await;
    browser.goto(&server.link()).await;
    let card = browser
        .wait_text("[data-testid=waiting-on-you]", |t| {
            t.contains("could not be downloaded")
        })
        .await;
    assert_eq!(
        card.matches("could not be downloaded").count(),
        1,
        "said once: {card}"
    );
    assert!(browser.count("[data-testid=command-row]").await > 0);
    assert!(browser.absent("[data-testid=waiting-item]").await);

    // Once the file is back, Retry brings the list.
    for path in &dropped {
        std::fs::copy(path, dist.path().join(path.file_name().unwrap())).expect("copied");
    }
    browser
        .click("[data-testid=waiting-on-you] [data-testid=error] button")
        .await;
    browser.wait_for("[data-testid=waiting-approve]").await;
    assert!(
        browser
            .absent("[data-testid=waiting-on-you] [data-testid=error]")
            .await
    );

    // The rest of the app still works: the mission list opens.
    browser.click("[data-testid=nav-missions]").await;
    browser.wait_for("[data-testid=mission-card]").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_whose_code_does_not_load_says_so_and_the_app_stays() {
    // The dashboard without the mission list's chunk.
    let (dist, _) = dist_without("split_missions_page");
    let server = TestServer::start_demo_serving(dist.path()).await;
    let browser = Browser::start(1366).await;
    browser.goto(&server.link()).await;
    browser.wait_for("[data-testid=command-row]").await;

    browser.click("[data-testid=nav-missions]").await;
    let error = browser
        .wait_text("main [data-testid=error]", |t| {
            t.contains("could not be downloaded")
        })
        .await;
    assert!(error.contains("Reload the page"), "{error}");
    assert!(browser.absent("[data-testid=mission-card]").await);

    // The other pages still open.
    browser.click("[data-testid=nav-command]").await;
    browser.wait_for("[data-testid=command-row]").await;
    browser.close().await;
}
