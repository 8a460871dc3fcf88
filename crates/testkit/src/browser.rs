//! Headless Chromium over chromedriver. Chromedriver runs in its own process group, which is
//! killed on drop, so a failed test never leaves a browser behind.

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a wait for the page gives it before the test fails...
const WAIT: Duration = Duration::from_secs(20);
/// ...and how often it looks again meanwhile.
const LOOK_AGAIN: Duration = Duration::from_millis(50);

pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    /// Starts chromedriver and a fresh headless Chromium profile at `width`×900.
    pub async fn start(width: u32) -> Self {
        use std::os::unix::process::CommandExt;
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("{CHROMEDRIVER}: {e} (cargo xtask test installs it)"));
        let profile = tempfile::tempdir().expect("profile dir");
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            // A page under test runs its timers and draws its frames even when Chromium
            // judges its window hidden or busy: throttled, a page waits on nothing.
            "--disable-background-timer-throttling".into(),
            "--disable-backgrounding-occluded-windows".into(),
            "--disable-renderer-backgrounding".into(),
            format!("--window-size={width},900"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({"binary": CHROMIUM, "args": args}),
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        let client = loop {
            // Chromedriver listens on loopback HTTP: a plain connector, no TLS stack.
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(c) => break c,
                Err(e) if Instant::now() > deadline => panic!("chromedriver did not start: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        Self {
            client,
            driver,
            _profile: profile,
        }
    }

    /// Waits until `css` matches an element whose text satisfies `check`; returns the text.
    pub async fn wait_text(&self, css: &str, check: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        let mut last = String::new();
        loop {
            if let Ok(el) = self.client.find(Locator::Css(css)).await {
                if let Ok(text) = el.text().await {
                    if check(&text) {
                        return text;
                    }
                    last = text;
                }
            }
            if Instant::now() > deadline {
                let url = self
                    .client
                    .current_url()
                    .await
                    .map(|u| u.to_string())
                    .unwrap_or_default();
                let stopped = self.stopped().await;
                panic!("timed out waiting for {css} at {url}; last text: {last:?}{stopped}");
            }
            tokio::time::sleep(LOOK_AGAIN).await;
        }
    }

    /// Runs `script` until its answer satisfies `check` (what the page does after a
    /// render, such as moving the focus, comes a moment later); returns the answer.
    pub async fn wait_answer(
        &self,
        script: &str,
        check: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let answer = self.run(script).await;
            if check(&answer) {
                return answer;
            }
            if Instant::now() > deadline {
                let stopped = self.stopped().await;
                panic!("timed out running {script:?}; last answer: {answer}{stopped}");
            }
            tokio::time::sleep(LOOK_AGAIN).await;
        }
    }

    /// Waits for `css` to match, then returns the element.
    pub async fn wait_for(&self, css: &str) -> Element {
        self.wait_located(Locator::Css(css)).await
    }

    async fn wait_located(&self, locator: Locator<'_>) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.client.wait().at_most(left).for_element(locator).await {
                Ok(element) => return element,
                // A page that loads afresh (Connect does, once connected) aborts a lookup
                // under way: look again on the new page.
                Err(e) if !left.is_zero() && e.to_string().contains("aborted by navigation") => {
                    tokio::time::sleep(LOOK_AGAIN).await;
                }
                Err(e) => {
                    let stopped = self.stopped().await;
                    panic!("waiting for {locator:?}: {e}{stopped}")
                }
            }
        }
    }

    /// What the page's notice says when the app's code stopped on an error, for a failed
    /// wait's message: the wait was for a page that no longer answers.
    pub async fn stopped(&self) -> String {
        let said = self
            .client
            .execute(
                "const n = document.querySelector('[data-testid=stopped]'); \
                 return n ? n.innerText : null;",
                vec![],
            )
            .await;
        match said {
            Ok(serde_json::Value::String(text)) => format!("; the app stopped: {text}"),
            _ => String::new(),
        }
    }

    /// Clicks the element `css` matches, once the page shows it. A live page may render it
    /// afresh between finding and clicking: then the new one is clicked.
    pub async fn click(&self, css: &str) {
        for _ in 0..5 {
            match self.wait_for(css).await.click().await {
                Ok(()) => return,
                Err(e) if e.to_string().contains("stale element") => {}
                Err(e) => panic!("clicking {css}: {e}"),
            }
        }
        panic!("clicking {css}: rendered afresh five times over");
    }

    /// The current value of the form field `css` matches, read in one step (a live page may
    /// render the field afresh at any time).
    pub async fn value(&self, css: &str) -> Option<String> {
        let value = self
            .client
            .execute(
                "const f = document.querySelector(arguments[0]); return f ? f.value : null;",
                vec![css.into()],
            )
            .await
            .unwrap_or_else(|e| panic!("reading {css}: {e}"));
        value.as_str().map(str::to_string)
    }

    /// Sets the field `css` to `value` at once, as if typed (long texts would take minutes to
    /// type key by key), and tells the page: `input` for text, `change` for a select.
    pub async fn fill(&self, css: &str, value: &str) {
        self.client
            .execute(
                "const f = document.querySelector(arguments[0]); f.value = arguments[1]; \
                 f.dispatchEvent(new Event(f.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true}));",
                vec![css.into(), value.into()],
            )
            .await
            .unwrap_or_else(|e| panic!("filling {css}: {e}"));
    }

    /// Presses and releases `key` where the focus is, as a keyboard does.
    pub async fn press(&self, key: fantoccini::key::Key) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let value = char::from(key);
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
        self.client
            .perform_actions(keys)
            .await
            .unwrap_or_else(|e| panic!("pressing {key:?}: {e}"));
    }

    /// Loads `url`.
    pub async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("loading {url}: {e}"));
    }

    /// The path of the address shown.
    pub async fn path(&self) -> String {
        self.client
            .current_url()
            .await
            .expect("the current address")
            .path()
            .to_string()
    }

    /// Clicks the link whose text is `text`, once the page shows it.
    pub async fn click_link(&self, text: &str) {
        self.wait_located(Locator::LinkText(text))
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("clicking the link {text:?}: {e}"));
    }

    /// Types `text` into the field `css` matches, key by key.
    pub async fn type_into(&self, css: &str, text: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("finding {css}: {e}"))
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("typing into {css}: {e}"));
    }

    /// How many elements `css` matches now.
    pub async fn count(&self, css: &str) -> usize {
        self.client
            .find_all(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("finding {css}: {e}"))
            .len()
    }

    /// Waits until nothing on the page matches `css`.
    pub async fn wait_for_absent(&self, css: &str) {
        let deadline = Instant::now() + WAIT;
        while self.count(css).await > 0 {
            assert!(Instant::now() < deadline, "{css} is still shown");
            tokio::time::sleep(LOOK_AGAIN).await;
        }
    }

    /// Whether nothing on the page matches `css` now.
    pub async fn absent(&self, css: &str) -> bool {
        self.count(css).await == 0
    }

    /// The texts of the elements `css` matches now, in page order.
    pub async fn texts(&self, css: &str) -> Vec<String> {
        let mut texts = Vec::new();
        for el in self
            .client
            .find_all(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("finding {css}: {e}"))
        {
            texts.push(
                el.text()
                    .await
                    .unwrap_or_else(|e| panic!("reading {css}: {e}")),
            );
        }
        texts
    }

    /// The attribute `name` of the element `css` matches, once the page shows it.
    pub async fn attr(&self, css: &str, name: &str) -> Option<String> {
        self.wait_for(css)
            .await
            .attr(name)
            .await
            .unwrap_or_else(|e| panic!("reading {name} of {css}: {e}"))
    }

    /// Runs `script` in the page; returns what it returns.
    pub async fn run(&self, script: &str) -> serde_json::Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("running {script:?}: {e}"))
    }

    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        self.kill();
    }

    fn kill(&mut self) {
        // SAFETY: signalling a process group this struct created.
        unsafe {
            libc::kill(-(self.driver.id() as i32), libc::SIGKILL);
        }
        let _ = self.driver.wait();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.kill();
    }
}
