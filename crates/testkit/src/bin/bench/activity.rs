//! Activity with 100,000 tasks: the page's first answer (`GET /api/activity`, the default
//! query) as it is read after the team's data changed, so the server builds it afresh; the
//! same narrowed and searched; and the page in headless Chromium to its first row.

use crate::timing::{percentile, timed_gets_at};
use crate::{exec, sqlx_team};
use buildd_testkit::{Browser, TestServer};
use std::time::Instant;

const TASKS: usize = 100_000;
const MISSIONS: usize = 20;

/// 100,000 tasks in a team of their own, one a minute from 2026-01-01: a third of them in
/// 20 missions, every fiftieth a planning run, in every status, those that ran with a
/// worker. Written by statements that make the rows themselves.
async fn seed(server: &TestServer) {
    let mut tx = server.db.write().await.unwrap();
    let (team,) = sqlx_team(&mut tx).await;
    let at = "2026-01-01T00:00:00.000Z";
    exec(&mut tx, "INSERT INTO workspaces (id, team_id, name, repo, created_at, updated_at) VALUES ('act-ws', ?1, 'activity', 'acme/activity', ?2, ?2)", &[&team, at]).await;
    exec(&mut tx, &format!("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {}) \
        INSERT INTO missions (id, team_id, workspace_id, title, status, created_at, updated_at) \
        SELECT printf('act-mission-%02d', i), ?1, 'act-ws', printf('Mission %d', i), 'active', ?2, ?2 FROM n", MISSIONS - 1), &[&team, at]).await;
    exec(&mut tx, &format!("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {}) \
        INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, status, mode, created_at, updated_at) \
        SELECT printf('act-task-%06d', i), ?1, 'act-ws', \
          CASE WHEN i % 3 = 0 THEN printf('act-mission-%02d', i % {MISSIONS}) END, \
          printf('Activity task %d', i), \
          CASE i % 6 WHEN 0 THEN 'completed' WHEN 1 THEN 'completed' WHEN 2 THEN 'failed' \
            WHEN 3 THEN 'cancelled' WHEN 4 THEN 'pending' ELSE 'in_progress' END, \
          CASE WHEN i % 50 = 0 THEN 'planning' ELSE 'execution' END, \
          strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d minutes', i)), \
          strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d minutes', i)) FROM n", TASKS - 1), &[&team]).await;
    exec(&mut tx, "INSERT INTO workers (id, task_id, workspace_id, name, runner, status, created_at, updated_at) \
        SELECT 'w-' || id, id, workspace_id, 'w', 'bench', \
          CASE status WHEN 'in_progress' THEN 'running' WHEN 'cancelled' THEN 'failed' ELSE status END, \
          created_at, updated_at FROM tasks WHERE workspace_id = 'act-ws' AND status != 'pending'", &[]).await;
    tx.commit().await.unwrap();
}

/// The timings of `path` read afresh: the team's data changes before every request.
fn afresh(server: &TestServer, path: &str, runtime: &tokio::runtime::Handle) -> (Vec<f64>, usize) {
    let change = || {
        runtime.block_on(async {
            let mut tx = server.db.write().await.unwrap();
            exec(&mut tx, "UPDATE generation SET value = value + 1", &[]).await;
            tx.commit().await.unwrap();
        })
    };
    timed_gets_at(server.addr, &server.key, path, "", 100, change)
}

fn api(server: &TestServer, runtime: &tokio::runtime::Handle) {
    println!("\nGET /api/activity with {TASKS} tasks (the team's data changed before every request, one keep-alive connection)");
    for (name, path) in [
        ("first page, default query", "/api/activity"),
        (
            "failed, of no mission",
            "/api/activity?status=failed&missionId=none",
        ),
        ("searched for a title", "/api/activity?q=task%2099999"),
    ] {
        let (times, size) = afresh(server, path, runtime);
        let p50 = percentile(&times, 0.5);
        println!(
            "  {name:<28} p50 {p50:>7.2} ms   p99 {:>7.2} ms   ({} KB, {} requests)   budget p50 <= 100 ms: {}",
            percentile(&times, 0.99),
            size / 1000,
            times.len(),
            if p50 <= 100.0 { "within" } else { "OVER" }
        );
    }
    let (unchanged, _) = timed_gets_at(server.addr, &server.key, "/api/activity", "", 100, || {});
    println!(
        "  {:<28} p50 {:>7.2} ms   p99 {:>7.2} ms",
        "unchanged data",
        percentile(&unchanged, 0.5),
        percentile(&unchanged, 0.99)
    );
}

const FIRST_ROW: &str = r#"
const done = arguments[arguments.length - 1];
function check() {
  if (document.querySelector('[data-testid=activity-row]')) {
    done(performance.now());
  } else {
    requestAnimationFrame(check);
  }
}
check();
"#;

/// Navigation to the first row on screen, opened by its address; the first load, which
/// fetches the page's chunk, is left out.
async fn page(server: &TestServer) {
    let browser = Browser::start(1366).await;
    let c = &browser.client;
    c.goto(&server.link()).await.unwrap();
    browser.wait_for("[data-testid=command-center]").await;
    let url = server.url("/activity");
    let mut times = Vec::new();
    let started = Instant::now();
    for i in 0..6 {
        c.goto(&url).await.unwrap();
        let t = c.execute_async(FIRST_ROW, vec![]).await.unwrap();
        if i > 0 {
            times.push(t.as_f64().unwrap());
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("\nActivity page with {TASKS} tasks in headless Chromium (navigation to its first row on screen, {} loads in {:.1} s)", times.len(), started.elapsed().as_secs_f64());
    println!(
        "  median {:.0} ms   worst {:.0} ms   budget: <= 1000 ms ({})",
        percentile(&times, 0.5),
        times[times.len() - 1],
        if percentile(&times, 0.5) <= 1000.0 {
            "within"
        } else {
            "OVER"
        }
    );
    browser.close().await;
}

/// Seeds a server of its own with 100,000 tasks, then prints the figures.
pub async fn bench() {
    let server = TestServer::start_empty().await;
    let seeding = Instant::now();
    seed(&server).await;
    println!(
        "\nActivity: {TASKS} tasks seeded in {:.1} s",
        seeding.elapsed().as_secs_f64()
    );
    let runtime = tokio::runtime::Handle::current();
    tokio::task::block_in_place(|| api(&server, &runtime));
    page(&server).await;
}
