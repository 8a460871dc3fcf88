//! Every page under the Content-Security-Policy the server sends with it, served by the real
//! server from the release build: no page breaks a rule of its policy, and each still works.
//! Before any script of a page runs, the browser installs a listener (Chromium's
//! `Page.addScriptToEvaluateOnNewDocument`, through ChromeDriver) that writes every
//! `securitypolicyviolation` into the tab's sessionStorage, where it outlives the page's
//! reloads; a blocked inline script proves the listener hears what the policy refuses.

use crate::fixtures::api::{mission_id, mission_workspace, plan_in_review_of};
use crate::fixtures::check::{any_text, text_with};
use buildd_testkit::{Browser, RecordedBuildd, TestServer, ThroughUpstream};
use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::json;

/// Records each violation, with the address it happened at, in sessionStorage.
const LISTENER: &str = r#"
window.__cspListening = true;
window.addEventListener('securitypolicyviolation', (e) => {
  const seen = `${location.pathname}${location.search}: ${e.disposition} ${e.effectiveDirective} ` +
    `refused ${e.blockedURI || 'inline'} (${e.sourceFile || 'the page'}:${e.lineNumber}) ${e.sample}`;
  try {
    const log = JSON.parse(sessionStorage.getItem('cspViolations') || '[]');
    log.push(seen);
    sessionStorage.setItem('cspViolations', JSON.stringify(log));
  } catch (_) {
    // A document without storage (about:blank) has no page of ours in it.
  }
}, true);
"#;

/// A Chrome DevTools Protocol command, sent through ChromeDriver's own endpoint for it.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: serde_json::Value,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        let session = session_id.unwrap_or_default();
        base_url.join(&format!("session/{session}/goog/cdp/execute"))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({"cmd": self.cmd, "params": self.params});
        (http::Method::POST, Some(body.to_string()))
    }
}

/// A browser whose every page records the violations of its policy from its first script.
async fn watched() -> Browser {
    let browser = Browser::start(1280).await;
    browser
        .client
        .issue_cmd(Cdp {
            cmd: "Page.addScriptToEvaluateOnNewDocument",
            params: json!({ "source": LISTENER }),
        })
        .await
        .expect("ChromeDriver runs a script on every new document");
    browser
}

/// Loads `url` and waits for `landmark`; the page was watched from its start.
async fn open(browser: &Browser, url: &str, landmark: &str) {
    browser.goto(url).await;
    browser.wait_for(landmark).await;
    let listening = browser.run("return window.__cspListening === true").await;
    assert_eq!(listening.as_bool(), Some(true), "no listener on {url}");
}

/// Every violation recorded in this tab so far, once the events already queued have run.
async fn violations(browser: &Browser) -> Vec<String> {
    let log = browser
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             setTimeout(() => done(sessionStorage.getItem('cspViolations') || '[]'), 50);",
            vec![],
        )
        .await
        .expect("the violations");
    serde_json::from_str(log.as_str().expect("a JSON text")).expect("a list")
}

/// Fails with each distinct violation recorded so far and how often it happened.
async fn assert_none_recorded(browser: &Browser) {
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for violation in violations(browser).await {
        *seen.entry(violation).or_default() += 1;
    }
    let listed: Vec<String> = seen.iter().map(|(v, n)| format!("{n}× {v}")).collect();
    assert!(listed.is_empty(), "violations:\n{}", listed.join("\n"));
}

/// Runs an inline script the page's policy has no hash for: refused, and heard as refused.
async fn an_inline_script_is_refused_and_heard(browser: &Browser) {
    let before = violations(browser).await.len();
    browser
        .run(
            "const s = document.createElement('script');
             s.textContent = 'window.__inlineRan = true;';
             document.head.appendChild(s);",
        )
        .await;
    let heard = violations(browser).await;
    let ran = browser.run("return window.__inlineRan === true").await;
    assert_eq!(ran.as_bool(), Some(false), "an inline script ran");
    assert_eq!(heard.len(), before + 1, "{heard:?}");
    assert!(
        heard[before].contains("script-src-elem refused inline"),
        "{}",
        heard[before]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_works_under_its_content_security_policy() {
    let server = TestServer::start_demo().await;
    let mission = mission_id(&server, "Add a health endpoint").await;
    let plan = plan_in_review_of(&server, "Add a health endpoint").await;
    let workspace = mission_workspace(&server).await;
    let browser = watched().await;

    // Connecting, on its page.
    open(
        &browser,
        &server.url("/connect"),
        "[data-testid=connect-form]",
    )
    .await;
    browser.fill("[data-testid=key-input]", &server.key).await;
    browser.click("[data-testid=connect-submit]").await;
    // The command center with its rows, then what follows them (its own chunk).
    browser.wait_for("[data-testid=command-row]").await;
    browser
        .wait_for("[data-testid=waiting-on-you] ol.waiting")
        .await;
    browser.wait_for("[data-testid=keys-live]").await;

    let url = |path: &str| server.url(path);
    open(&browser, &url("/"), "[data-testid=command-row]").await;
    open(&browser, &url("/missions"), "[data-testid=mission-card]").await;
    text_with(
        &browser,
        "[data-testid=mission-card]",
        "Add a health endpoint",
    )
    .await;
    let on_mission = format!("/missions/{mission}");
    open(&browser, &url(&on_mission), "[data-testid=progress-card]").await;
    text_with(
        &browser,
        "[data-testid=mission-title]",
        "Add a health endpoint",
    )
    .await;
    open(
        &browser,
        &url(&format!("{on_mission}?tab=feed")),
        "[data-testid=feed]",
    )
    .await;
    open(
        &browser,
        &url(&format!("{on_mission}?tab=settings")),
        "[data-testid=organizer]",
    )
    .await;
    open(
        &browser,
        &url(&format!("/tasks/{plan}")),
        "[data-testid=plan-review]",
    )
    .await;
    assert_eq!(browser.count("[data-testid=plan-step]").await, 3);
    open(&browser, &url("/workspaces"), "[data-testid=workspace-row]").await;
    open(
        &browser,
        &url(&format!("/workspaces/{workspace}")),
        "[data-testid=workspace-policy-current]",
    )
    .await;
    any_text(&browser, "[data-testid=workspace-name]").await;
    open(&browser, &url("/no/such/page"), "main h1").await;
    text_with(&browser, "main h1", "not found").await;

    assert_none_recorded(&browser).await;
    an_inline_script_is_refused_and_heard(&browser).await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_dashboard_on_buildd_works_under_its_content_security_policy() {
    const MISSION: &str = "50000000-0000-4000-8000-000000000001";
    let buildd = RecordedBuildd::start().await;
    let dashboard = ThroughUpstream::start(&buildd.url()).await;
    let browser = watched().await;
    open(
        &browser,
        &dashboard.url("/connect"),
        "[data-testid=key-input]",
    )
    .await;
    browser
        .fill("[data-testid=key-input]", &buildd.admin_key)
        .await;
    browser.click("[data-testid=connect-submit]").await;
    browser.wait_for("[data-testid=command-center]").await;
    open(
        &browser,
        &dashboard.url("/"),
        "[data-testid=command-center]",
    )
    .await;
    any_text(&browser, "[data-testid=not-offered]").await;
    open(
        &browser,
        &dashboard.url(&format!("/missions/{MISSION}")),
        "[data-testid=mission-title]",
    )
    .await;
    text_with(
        &browser,
        "[data-testid=mission-title]",
        "Ref mission: health endpoint",
    )
    .await;
    text_with(&browser, "[data-testid=pr-list]", "read from the tasks").await;

    assert_none_recorded(&browser).await;
    an_inline_script_is_refused_and_heard(&browser).await;
    browser.close().await;
}
