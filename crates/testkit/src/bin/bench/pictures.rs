//! A mission's pictures drawn in the browser: 10,000 tasks in 100 plans, each claimed and
//! finished, one in five with a PR. Timed in the page from the click on the Pictures tab to
//! the burn-up and the timeline on screen, once the page has settled (nothing fetched for
//! 1.5 s: the mission read, and the tab's code fetched ahead as the page does for a lead
//! who reads it first): the series computed in wasm and drawn as SVG.

use crate::timing::percentile;
use crate::{exec, sqlx_team};
use buildd_testkit::{Browser, TestServer};

const TASKS: usize = 10_000;
const MISSION: &str = "pic-mission";
/// The budget a picture of 10,000 points draws within.
const BUDGET_MS: f64 = 100.0;

/// The mission, its tasks filed a minute apart, claimed two minutes later and finished
/// ten minutes after that; one in thirteen failed, every hundredth a planning run.
async fn seed(server: &TestServer) {
    let mut tx = server.db.write().await.unwrap();
    let (team,) = sqlx_team(&mut tx).await;
    let at = "2026-01-01T00:00:00.000Z";
    exec(&mut tx, "INSERT INTO workspaces (id, team_id, name, repo, created_at, updated_at) VALUES ('pic-ws', ?1, 'pictures', 'acme/pictures', ?2, ?2)", &[&team, at]).await;
    exec(&mut tx, "INSERT INTO missions (id, team_id, workspace_id, title, status, created_at, updated_at) VALUES (?1, ?2, 'pic-ws', 'Bench: 10,000 tasks drawn', 'active', ?3, ?3)", &[MISSION, &team, at]).await;
    let minutes = |from: &str| {
        format!("strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d minutes', i{from}))")
    };
    exec(&mut tx, &format!("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {}) \
        INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, status, mode, parent_task_id, created_at, updated_at) \
        SELECT printf('pic-task-%05d', i), ?1, 'pic-ws', ?2, printf('Drawn task %d', i), \
          CASE WHEN i % 13 = 0 THEN 'failed' ELSE 'completed' END, \
          CASE WHEN i % 100 = 0 THEN 'planning' ELSE 'execution' END, \
          CASE WHEN i % 100 = 0 THEN NULL ELSE printf('pic-task-%05d', i / 100 * 100) END, \
          {}, {} FROM n", TASKS - 1, minutes(""), minutes(" + 12")), &[&team, MISSION]).await;
    exec(&mut tx, &format!("INSERT INTO workers (id, task_id, workspace_id, name, runner, status, pr_url, started_at, completed_at, created_at, updated_at) \
        SELECT 'pic-w-' || id, id, workspace_id, 'w', 'bench', status, \
          CASE WHEN CAST(substr(id, 10) AS INTEGER) % 5 = 0 AND status = 'completed' \
            THEN 'https://github.com/acme/pictures/pull/' || CAST(substr(id, 10) AS INTEGER) END, \
          {}, updated_at, created_at, updated_at FROM tasks WHERE mission_id = ?1", 
          "strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+2 minutes')"), &[MISSION]).await;
    tx.commit().await.unwrap();
}

/// Answers once the page has fetched nothing for 1.5 s (at most 20 s).
const SETTLED: &str = r#"
const done = arguments[arguments.length - 1];
const begun = performance.now();
let count = -1, since = begun;
function look() {
  const now = performance.now();
  const n = performance.getEntriesByType('resource').length;
  if (n !== count) { count = n; since = now; }
  if (now - since >= 1500 || now - begun > 20000) { done(null); } else { setTimeout(look, 100); }
}
look();
"#;

/// Clicks the Pictures tab and answers the milliseconds until the burn-up's bands and the
/// timeline's bars are drawn, measured in the page.
const OPEN_PICTURES: &str = r#"
const done = arguments[arguments.length - 1];
const start = performance.now();
document.querySelector('[data-testid=tab-pictures]').click();
function check() {
  if (document.querySelector('[data-testid=burn-up-svg] .pic__bands path') &&
      document.querySelector('[data-testid=timeline-bar]')) {
    done(performance.now() - start);
  } else {
    requestAnimationFrame(check);
  }
}
check();
"#;

pub async fn bench() {
    let server = TestServer::start_empty().await;
    seed(&server).await;
    let browser = Browser::start(1280).await;
    let c = &browser.client;
    c.goto(&server.link()).await.unwrap();
    browser.wait_for("[data-testid=command-center]").await;
    let url = server.url(&format!("/missions/{MISSION}"));
    let mut times = Vec::new();
    for i in 0..6 {
        c.goto(&url).await.unwrap();
        browser.wait_for("[data-testid=tab-pictures]").await;
        browser.wait_for("[data-testid=progress-card]").await;
        c.execute_async(SETTLED, vec![]).await.unwrap();
        let t = c.execute_async(OPEN_PICTURES, vec![]).await.unwrap();
        // The first page load also fetched the tab's code and styles into the cache.
        if i > 0 {
            times.push(t.as_f64().unwrap());
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = percentile(&times, 0.5);
    println!(
        "\nA mission's pictures of {TASKS} tasks in headless Chromium (click on the Pictures tab to burn-up and timeline drawn, {} loads)",
        times.len()
    );
    println!(
        "  median {median:.0} ms   worst {:.0} ms   budget: <= {BUDGET_MS:.0} ms ({})",
        times[times.len() - 1],
        if median <= BUDGET_MS {
            "within"
        } else {
            "OVER"
        }
    );
    browser.close().await;
}
