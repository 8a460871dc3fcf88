//! `cargo xtask bench`: the dashboard's shipped size and the command center's first load in
//! headless Chromium, `GET /api/missions/{id}` latency for a mission with 2,000 tasks,
//! what the request log and metrics add to it, approve-plan on a 100-step plan, the time to
//! render that mission, Activity's first answer and page with 100,000 tasks, an idle page's
//! traffic, and a mission's pictures computed and drawn at 10,000 points
//! (`buildd_testkit::pictures_bench`). Log lines are written as the server writes them (at
//! info, to nowhere), so every figure includes them.
//! Figures are printed with their budgets; nothing is asserted.
//!
//! `bench pictures`: the pictures' figures alone.
//!
//! `bench agents [--agents 50,200,…] [--seconds N] [--server PATH] [--no-deep-queue]
//! [--lockstep] [--rounds N] [--database-url URL [--replicas N]]` (`cargo xtask bench
//! agents`): claims against a deep queue, then simulated runners and dashboard tabs against
//! `buildd-server` in a child process (or `--replicas` of them on a fresh database of the
//! Postgres server at `URL`, which skips the deep queue), stepped up by the number of
//! agents, `--rounds` times over with each step's medians (see `buildd_testkit::agents`).

mod activity;
mod pictures;
mod timing;

use buildd_server::db::sql;
use buildd_testkit::{is_chunk, Browser, TestServer, WorkerVerbs};
use serde_json::json;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Instant;
use timing::{percentile, timed_gets_at};

const TASKS: usize = 2_000;

fn gzip(bytes: &[u8]) -> usize {
    use flate2::{write::GzEncoder, Compression};
    let mut e = GzEncoder::new(Vec::new(), Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap().len()
}

fn brotli(bytes: &[u8]) -> usize {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).unwrap();
    out.len()
}

/// The files of the current build: what `index.html` names, the split build's chunks and
/// loader (`split-files.json`); the previous build's chunks kept beside them are left out.
fn build_files(dist: &Path) -> Vec<String> {
    let index = std::fs::read_to_string(dist.join("index.html")).expect("index.html");
    let mut files: Vec<String> = index
        .split(['"', '\''])
        .filter_map(|part| part.strip_prefix('/'))
        .filter(|name| name.ends_with(".wasm") || name.ends_with(".js"))
        .map(str::to_string)
        .collect();
    if let Ok(split) = std::fs::read_to_string(dist.join("split-files.json")) {
        files.extend(serde_json::from_str::<Vec<String>>(&split).expect("split-files.json"));
    }
    files.sort();
    files.dedup();
    files
}

fn sizes(dist: &Path) {
    println!("\nShipped dashboard ({})", dist.display());
    println!(
        "  {:<56} {:>10} {:>10} {:>10}",
        "file", "raw", "gzip", "brotli"
    );
    let (mut all, mut chunks) = ((0, 0, 0), (0, 0, 0));
    for name in build_files(dist) {
        let bytes = std::fs::read(dist.join(&name)).unwrap();
        let (r, g, b) = (bytes.len(), gzip(&bytes), brotli(&bytes));
        all = (all.0 + r, all.1 + g, all.2 + b);
        if is_chunk(&name) {
            chunks = (chunks.0 + r, chunks.1 + g, chunks.2 + b);
        }
        println!("  {name:<56} {r:>10} {g:>10} {b:>10}");
    }
    println!(
        "  {:<56} {:>10} {:>10} {:>10}",
        "the lazy pages' chunks", chunks.0, chunks.1, chunks.2
    );
    println!(
        "  {:<56} {:>10} {:>10} {:>10}",
        "all wasm + js", all.0, all.1, all.2
    );
}

/// Waits for the command center's first row: the time since navigation, and the wasm, JS and
/// CSS files fetched before it, each with the bytes received for it (as the server sent them:
/// brotli where the build left a copy).
const FIRST_ROW: &str = r#"
const done = arguments[arguments.length - 1];
function check() {
  if (document.querySelector('[data-testid=command-row]')) {
    const at = performance.now();
    const files = performance.getEntriesByType("resource")
      .filter(e => e.startTime < at)
      .map(e => [new URL(e.name).pathname.slice(1), e.encodedBodySize])
      .filter(([path]) => /\.(wasm|js|css)$/.test(path));
    done([at, files]);
  } else {
    requestAnimationFrame(check);
  }
}
check();
"#;

/// The wasm and JS files asked for at or after `arguments[0]` (ms since navigation), with
/// the bytes received for each.
const AFTER: &str = r#"
return performance.getEntriesByType("resource")
  .filter(e => e.startTime >= arguments[0])
  .map(e => [new URL(e.name).pathname.slice(1), e.encodedBodySize])
  .filter(([path]) => /\.(wasm|js)$/.test(path));
"#;

/// The wasm and JS files fetched since the timings were last cleared, with the bytes
/// received for each.
const FETCHED: &str = r#"
return performance.getEntriesByType("resource")
  .map(e => [new URL(e.name).pathname.slice(1), e.encodedBodySize])
  .filter(([path]) => /\.(wasm|js)$/.test(path));
"#;

/// Files and the bytes received for each, as the scripts above list them.
fn received(list: serde_json::Value) -> Vec<(String, u64)> {
    serde_json::from_value(list).expect("[path, bytes] pairs")
}

fn total(files: &[(String, u64)]) -> u64 {
    files.iter().map(|(_, bytes)| bytes).sum()
}

/// The command center's first load as a browser receives it from a server just started,
/// timed to its first row, cold (a fresh profile whose key is stored, as after a deploy or a
/// cleared cache) and warm (opened again); then what the lazy pages fetch on their first
/// visit. Sizes are the bytes received, so a file served uncompressed shows as such.
async fn first_load() {
    let server = TestServer::start_demo().await;
    let browser = Browser::start(1366).await;
    let c = &browser.client;
    // The key is stored from a page of the origin that loads none of the dashboard.
    c.goto(&server.url("/favicon.svg")).await.unwrap();
    c.execute(
        "localStorage.setItem('buildd.apiKey', arguments[0]); localStorage.setItem('buildd.apiBase', '');",
        vec![serde_json::Value::String(server.key.clone())],
    )
    .await
    .unwrap();
    c.goto(&server.url("/")).await.unwrap();
    let cold = c.execute_async(FIRST_ROW, vec![]).await.unwrap();
    println!("\nFirst load: the command center in headless Chromium right after the server started, every file it fetched before its first row");
    println!("  {:<56} {:>10}", "file", "received");
    let first = received(cold[1].clone());
    for (name, size) in &first {
        println!("  {name:<56} {size:>10}");
    }
    let first_total = total(&first);
    println!(
        "  total {:.1} KB received   budget: <= 200 KB ({})",
        first_total as f64 / 1000.0,
        if first_total <= 200_000 {
            "within"
        } else {
            "OVER"
        }
    );
    // What waits for the first rows: Waiting on you with its actions, the team's PRs and
    // questions, the change stream.
    browser
        .wait_for("[data-testid=waiting-on-you] ol.waiting")
        .await;
    browser
        .wait_for("[data-testid=server][data-live=true]")
        .await;
    let at = cold[0].as_f64().expect("the first row's time");
    let later = received(c.execute(AFTER, vec![serde_json::json!(at)]).await.unwrap());
    println!(
        "  then, once the rows show: {} more files, {:.1} KB received (Waiting on you, PRs and questions, the change stream)",
        later.len(),
        total(&later) as f64 / 1000.0
    );
    let mut warm = Vec::new();
    for _ in 0..5 {
        c.goto(&server.url("/")).await.unwrap();
        let t = c.execute_async(FIRST_ROW, vec![]).await.unwrap();
        warm.push(t[0].as_f64().unwrap());
    }
    warm.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "  first row on screen: cold {:.0} ms, warm median {:.0} ms ({} loads)",
        cold[0].as_f64().unwrap(),
        percentile(&warm, 0.5),
        warm.len()
    );
    // A page's first visit within the app, as a click takes it there.
    for (page, link, ready) in [
        (
            "mission list",
            "[data-testid=nav-missions]",
            "[data-testid=active-count]",
        ),
        (
            "mission page",
            "[data-testid=command-row] a",
            "[data-testid=mission-title]",
        ),
    ] {
        c.goto(&server.url("/")).await.unwrap();
        c.execute_async(FIRST_ROW, vec![]).await.unwrap();
        // What follows the rows is in (its chunk brings the keys), so only the page's own
        // files are counted.
        browser.wait_for("[data-testid=keys-live]").await;
        c.execute("performance.clearResourceTimings()", vec![])
            .await
            .unwrap();
        browser.click(link).await;
        browser.wait_for(ready).await;
        let fetched = received(c.execute(FETCHED, vec![]).await.unwrap());
        println!(
            "  first visit to the {page}: {} files, {:.1} KB received",
            fetched.len(),
            total(&fetched) as f64 / 1000.0
        );
    }
    browser.close().await;
}

async fn seed_big_mission(server: &TestServer) -> String {
    let mut tx = server.db.write().await.unwrap();
    let (team, workspace): (String, String) = {
        let team: (String,) = sqlx_team(&mut tx).await;
        let ws = format!("bench-ws-{}", team.0);
        exec(&mut tx, "INSERT INTO workspaces (id, team_id, name, repo, created_at, updated_at) VALUES (?1, ?2, 'bench', 'acme/bench', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')", &[&ws, &team.0]).await;
        (team.0, ws)
    };
    let mission = "bench-mission".to_string();
    exec(&mut tx, "INSERT INTO missions (id, team_id, workspace_id, title, description, status, created_at, updated_at) VALUES (?1, ?2, ?3, 'Bench: 2,000 tasks', 'A large mission.', 'active', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')", &[&mission, &team, &workspace]).await;
    for i in 0..TASKS {
        let id = format!("bench-task-{i:05}");
        let status = match i % 5 {
            0 | 1 => "completed",
            2 => "assigned",
            3 => "failed",
            _ => "pending",
        };
        let deps = if i > 0 && i % 5 == 4 {
            format!("[\"bench-task-{:05}\"]", i - 1)
        } else {
            "[]".to_string()
        };
        let result = format!("{{\"summary\":\"Finished step {i}\"}}");
        let created = format!("2026-01-01T00:{:02}:{:02}.000Z", (i / 60) % 60, i % 60);
        exec(&mut tx, "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, description, status, depends_on, result, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 'Bench task', ?6, ?7, ?8, ?9, ?9)",
            &[&id, &team, &workspace, &mission, &format!("Bench task {i}"), status, &deps, &result, &created]).await;
        if status != "pending" {
            let worker_status = if status == "assigned" {
                "running"
            } else {
                status
            };
            let pr = (i % 2 == 0).then(|| format!("https://github.com/acme/bench/pull/{i}"));
            exec(&mut tx, "INSERT INTO workers (id, task_id, workspace_id, name, runner, status, pr_url, created_at, updated_at) VALUES (?1, ?2, ?3, 'w', 'bench', ?4, ?5, ?6, ?6)",
                &[&format!("bench-worker-{i}"), &id, &workspace, worker_status, pr.as_deref().unwrap_or(""), &created]).await;
        }
    }
    tx.commit().await.unwrap();
    mission
}

async fn sqlx_team(tx: &mut buildd_server::db::Tx) -> (String,) {
    sql::query_as("SELECT id FROM teams LIMIT 1")
        .fetch_one(tx)
        .await
        .unwrap()
}

/// Runs `sql` with `binds` in order, an empty one bound as NULL.
async fn exec(tx: &mut buildd_server::db::Tx, sql: &str, binds: &[&str]) {
    let mut q = sql::query(sql);
    for b in binds {
        q = q.bind(if b.is_empty() { None } else { Some(*b) });
    }
    q.execute(tx).await.unwrap();
}

/// Sends `requests` GETs (with `headers`) over one keep-alive connection; `before` runs
/// untimed before each.
fn timed_gets(
    server: &TestServer,
    path: &str,
    headers: &str,
    requests: usize,
    before: impl FnMut(),
) -> (Vec<f64>, usize) {
    timed_gets_at(server.addr, &server.key, path, headers, requests, before)
}

fn api_latency(server: &TestServer, mission: &str, runtime: &tokio::runtime::Handle) {
    let path = format!("/api/missions/{mission}");
    let (warm, size) = timed_gets(server, &path, "", 200, || {});
    let write = |sql: &str| {
        runtime.block_on(async {
            let mut tx = server.db.write().await.unwrap();
            sql::query(sql)
                .bind(mission)
                .execute(&mut tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
        })
    };
    // Something else changed before every request: the page is rebuilt around its tasks.
    let (other, _) = timed_gets(server, &path, "", 100, || {
        write("UPDATE generation SET value = value + 1 WHERE ?1 IS NOT NULL")
    });
    // One of its own tasks changed before every request: that task is read again.
    let touch_task = "UPDATE tasks SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') \
         WHERE id = (SELECT id FROM tasks WHERE mission_id = ?1 LIMIT 1)";
    let (own, _) = timed_gets(server, &path, "", 100, || write(touch_task));
    // The same, asked for as a browser asks: the answer is gzipped.
    let (own_gzip, gzip_size) = timed_gets(
        server,
        &path,
        "Accept-Encoding: gzip, deflate, br\r\n",
        100,
        || write(touch_task),
    );
    println!(
        "\nGET /api/missions/{{id}} with {TASKS} tasks ({} KB body, {} KB gzipped, one keep-alive connection)",
        size / 1000,
        gzip_size / 1000
    );
    let verdict = |times: &[f64]| {
        if percentile(times, 0.5) <= 5.0 {
            "within"
        } else {
            "OVER"
        }
    };
    for (name, times) in [
        ("unchanged data", &warm),
        ("other data changed before", &other),
        ("its task changed before", &own),
        ("same, gzip accepted", &own_gzip),
    ] {
        println!(
            "  {name:<26} p50 {:>6.2} ms   p99 {:>6.2} ms   ({} requests)   budget p50 <= 5 ms: {}",
            percentile(times, 0.5),
            percentile(times, 0.99),
            times.len(),
            verdict(times)
        );
    }
}

/// What the request log, request metrics and claim counting add to a request: the same GETs
/// to the server and to a second one on the same database built without them.
async fn layers_cost(server: &TestServer, mission: &str) {
    let options = buildd_server::AppOptions {
        instrumented: false,
        ..Default::default()
    };
    let bare = buildd_server::app_with_options(
        server.db.clone(),
        Some(&buildd_testkit::dist_dir()),
        options,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let bare_addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, bare).await;
    });
    let path = format!("/api/missions/{mission}");
    let (with, without) = tokio::task::block_in_place(|| {
        let (with, _) = timed_gets_at(server.addr, &server.key, &path, "", 300, || {});
        let (without, _) = timed_gets_at(bare_addr, &server.key, &path, "", 300, || {});
        (with, without)
    });
    println!("\nRequest log and metrics: GET /api/missions/{{id}} ({TASKS} tasks, unchanged data, one keep-alive connection each)");
    for (name, times) in [("with them", &with), ("without them", &without)] {
        println!(
            "  {name:<14} p50 {:>6.2} ms   p99 {:>6.2} ms   ({} requests)",
            percentile(times, 0.5),
            percentile(times, 0.99),
            times.len()
        );
    }
    println!(
        "  added          p50 {:>+6.2} ms   p99 {:>+6.2} ms",
        percentile(&with, 0.5) - percentile(&without, 0.5),
        percentile(&with, 0.99) - percentile(&without, 0.99)
    );
}

/// What the upstream mode adds to a request: the same GETs straight to the server and
/// through a second server forwarding to it, over loopback.
async fn proxy_overhead(server: &TestServer, mission: &str) {
    let through = buildd_testkit::ThroughUpstream::start(&format!("http://{}", server.addr)).await;
    println!("\nUpstream mode: added per request (through the proxy minus direct, one keep-alive connection each)");
    for (name, path) in [
        (
            "GET /api/missions/capabilities",
            "/api/missions/capabilities".to_string(),
        ),
        (
            "GET /api/missions/{id} (2,000 tasks)",
            format!("/api/missions/{mission}"),
        ),
    ] {
        let (direct, through_times) = tokio::task::block_in_place(|| {
            let (direct, _) = timed_gets_at(server.addr, &server.key, &path, "", 300, || {});
            let (via, _) = timed_gets_at(through.addr, &server.key, &path, "", 300, || {});
            (direct, via)
        });
        let p50 = percentile(&through_times, 0.5) - percentile(&direct, 0.5);
        let p99 = percentile(&through_times, 0.99) - percentile(&direct, 0.99);
        println!(
            "  {name:<38} p50 +{p50:>5.2} ms   p99 +{p99:>5.2} ms   ({} requests)   budget p50 <= +1 ms: {}",
            direct.len(),
            if p50 <= 1.0 { "within" } else { "OVER" }
        );
    }
}

/// Requests per second from 100 pollers of one mission page at once, each on its own
/// keep-alive connection, for two seconds; with `etag`, each sends it back (304s).
fn pollers(server: &TestServer, path: &str, etag: Option<&str>) -> f64 {
    const POLLERS: usize = 100;
    let until = Instant::now() + std::time::Duration::from_secs(2);
    let started = Instant::now();
    let extra = etag
        .map(|t| format!("If-None-Match: {t}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nAccept-Encoding: gzip\r\n{extra}\r\n",
        server.addr, server.key
    );
    let threads: Vec<_> = (0..POLLERS)
        .map(|_| {
            let (addr, request) = (server.addr, request.clone());
            std::thread::spawn(move || {
                let stream = TcpStream::connect(addr).unwrap();
                stream.set_nodelay(true).unwrap();
                let mut writer = stream.try_clone().unwrap();
                let mut reader = BufReader::new(stream);
                let mut done = 0u64;
                while Instant::now() < until {
                    writer.write_all(request.as_bytes()).unwrap();
                    let (status, _) = buildd_testkit::read_response(&mut reader);
                    assert!(status == 200 || status == 304, "{status}");
                    done += 1;
                }
                done
            })
        })
        .collect();
    let total: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    total as f64 / started.elapsed().as_secs_f64()
}

/// The ETag of `path` as a first poll gets it.
fn etag_of(server: &TestServer, path: &str) -> String {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nConnection: close\r\n\r\n",
        server.addr, server.key
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    answer
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("etag")
                .then(|| value.trim().to_string())
        })
        .expect("an ETag")
}

fn throughput(server: &TestServer, mission: &str) {
    let path = format!("/api/missions/{mission}");
    let etag = etag_of(server, &path);
    println!(
        "\nThroughput: 100 pollers of GET /api/missions/{{id}} ({TASKS} tasks, gzip accepted), 2 s"
    );
    println!(
        "  without If-None-Match  {:>8.0} requests/s",
        pollers(server, &path, None)
    );
    println!(
        "  with If-None-Match     {:>8.0} requests/s (304s)",
        pollers(server, &path, Some(&etag))
    );
}

/// Steps of the plan approved in the approve benchmark.
const PLAN_STEPS: usize = 100;

/// A plan of `PLAN_STEPS` steps in waves of ten, each step depending on two of the wave
/// before it, every tenth stacked on its first dependency's branch.
fn big_plan() -> serde_json::Value {
    let steps: Vec<serde_json::Value> = (0..PLAN_STEPS)
        .map(|i| {
            let wave = i / 10;
            let deps: Vec<String> = if wave == 0 {
                vec![]
            } else {
                let base = (wave - 1) * 10;
                vec![format!("s{}", base + i % 10), format!("s{}", base + (i + 1) % 10)]
            };
            let mut step = json!({
                "ref": format!("s{i}"), "title": format!("Step {i}: change module {i}"),
                "description": "Make the change, with tests.", "dependsOn": deps,
                "priority": (i % 3) as i64, "roleSlug": "builder", "outputRequirement": "pr_required",
            });
            if i % 10 == 0 && wave > 0 {
                step["baseBranch"] = json!(format!("s{}", (wave - 1) * 10));
            }
            step
        })
        .collect();
    json!({"plan": steps, "summary": "A hundred steps.", "missionComplete": false})
}

/// Server time of approve-plan on a 100-step plan: a fresh plan in review per request.
async fn approve_time(server: &TestServer) {
    let (_, ws) = server
        .admin(
            "POST",
            "/api/workspaces",
            Some(json!({"name": "bench-approve", "repo": "acme/bench"})),
        )
        .await;
    let workspace = ws["workspace"]["id"].as_str().unwrap().to_string();
    let plan = big_plan();
    let mut times = Vec::new();
    for i in 0..25 {
        let mission = json!({"title": format!("Approve bench {i}"), "workspaceId": workspace});
        let (_, m) = server.admin("POST", "/api/missions", Some(mission)).await;
        let run_path = format!("/api/missions/{}/run", m["id"].as_str().unwrap());
        let (_, run) = server.admin("POST", &run_path, None).await;
        let task = run["task"]["id"].as_str().unwrap();
        server.complete_with_output(task, plan.clone()).await;
        let approve_path = format!("/api/tasks/{task}/approve-plan");
        let start = Instant::now();
        let (status, body) = server.admin("POST", &approve_path, None).await;
        let elapsed = start.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["tasks"].as_array().unwrap().len(), PLAN_STEPS);
        if i >= 5 {
            times.push(elapsed);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "\nPOST /api/tasks/{{id}}/approve-plan, {PLAN_STEPS}-step plan with dependencies ({} approvals)",
        times.len()
    );
    println!(
        "  p50 {:>6.2} ms   p99 {:>6.2} ms   budget: p50 <= 20 ms ({})",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        if percentile(&times, 0.5) <= 20.0 {
            "within"
        } else {
            "OVER"
        }
    );
}

const WAIT_FOR_PAGE: &str = r#"
const done = arguments[arguments.length - 1];
function check() {
  if (document.querySelector('[data-testid=progress-card]') &&
      document.querySelector('[data-testid=task-list] [data-testid=task-row]')) {
    done(performance.now());
  } else {
    requestAnimationFrame(check);
  }
}
check();
"#;

async fn render_time(server: &TestServer, mission: &str) {
    let browser = Browser::start(1280).await;
    let c = &browser.client;
    c.goto(&server.link()).await.unwrap();
    browser.wait_for("[data-testid=command-center]").await;
    let url = server.url(&format!("/missions/{mission}"));
    let mut times = Vec::new();
    for i in 0..6 {
        c.goto(&url).await.unwrap();
        let t = c.execute_async(WAIT_FOR_PAGE, vec![]).await.unwrap();
        if i > 0 {
            times.push(t.as_f64().unwrap());
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("\nMission page with {TASKS} tasks in headless Chromium (navigation to progress card and task list on screen, {} loads)", times.len());
    println!(
        "  median {:.0} ms   worst {:.0} ms   budget: <= 300 ms ({})",
        percentile(&times, 0.5),
        times[times.len() - 1],
        if percentile(&times, 0.5) <= 300.0 {
            "within"
        } else {
            "OVER"
        }
    );
    browser.close().await;
}

/// The API requests the page made since the last call, and the bytes they took.
const API_TRAFFIC: &str = r#"
const api = performance.getEntriesByType("resource").filter(e => e.name.includes("/api/"));
performance.clearResourceTimings();
return [api.length, api.reduce((sum, e) => sum + e.transferSize, 0)];
"#;

/// An open mission page that nothing changes: what it asks of the server per minute, in the
/// first minute and once its pace has settled (the second). Once with the change stream
/// open, once on a server that lacks it (as Buildd does), where the page polls.
async fn idle_traffic() {
    let server = TestServer::start_demo().await;
    let missions = server.get("/api/missions").await;
    let largest = missions["missions"]
        .as_array()
        .expect("missions")
        .iter()
        .max_by_key(|m| m["totalTasks"].as_i64().unwrap_or(0))
        .expect("the demo has missions")["id"]
        .as_str()
        .expect("an id")
        .to_string();
    println!("\nIdle mission page (the demo's largest mission, open in headless Chromium, nothing changing)");
    let streamed = idle_minutes(&server.url(""), &server.key, &largest).await;
    // The stream itself stays open, so its bytes (a keep-alive comment every 20 s, under
    // 0.1 KB a minute) are not in the page's resource timings.
    print_idle("change stream open", streamed);
    let polled = idle_minutes(&without_stream(&server).await, &server.key, &largest).await;
    print_idle("no stream (polling)", polled);
}

/// The same API and dashboard, but `/api/events` answers 404.
async fn without_stream(server: &TestServer) -> String {
    use axum::response::IntoResponse;
    let router = buildd_server::app(server.db.clone(), Some(&buildd_testkit::dist_dir())).layer(
        axum::middleware::from_fn(
            |request: axum::extract::Request, next: axum::middleware::Next| async move {
                if request.uri().path() == "/api/events" {
                    return (
                        axum::http::StatusCode::NOT_FOUND,
                        axum::Json(json!({"error": "Not found"})),
                    )
                        .into_response();
                }
                next.run(request).await
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    format!("http://{addr}")
}

/// Requests and KB in each of two idle minutes on the mission page at `base`.
async fn idle_minutes(base: &str, key: &str, mission: &str) -> [(u64, f64); 2] {
    let browser = Browser::start(1280).await;
    let c = &browser.client;
    c.goto(&format!("{base}/#key={key}")).await.unwrap();
    browser.wait_for("[data-testid=command-center]").await;
    c.goto(&format!("{base}/missions/{mission}")).await.unwrap();
    browser.wait_for("[data-testid=mission-title]").await;
    c.execute("performance.clearResourceTimings()", vec![])
        .await
        .unwrap();
    let mut minutes = [(0, 0.0); 2];
    for minute in &mut minutes {
        tokio::time::sleep(std::time::Duration::from_secs(60)).await;
        let traffic = c.execute(API_TRAFFIC, vec![]).await.unwrap();
        *minute = (
            traffic[0].as_u64().unwrap_or(0),
            traffic[1].as_f64().unwrap_or(0.0) / 1024.0,
        );
    }
    browser.close().await;
    minutes
}

fn print_idle(how: &str, minutes: [(u64, f64); 2]) {
    println!(
        "  {how}: first minute {} requests, {:.1} KB   then {} requests, {:.1} KB a minute   budget: <= 30 requests and <= 30 KB a minute ({})",
        minutes[0].0,
        minutes[0].1,
        minutes[1].0,
        minutes[1].1,
        if minutes[1].0 <= 30 && minutes[1].1 <= 30.0 {
            "within"
        } else {
            "OVER"
        }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("agents") => return agents(&args[1..]),
        // The pictures' figures alone: no build, server or browser needed.
        Some("pictures") => return buildd_testkit::pictures_bench::print(),
        _ => {}
    }
    let dist = args.first().cloned().unwrap_or_else(|| "dist".into());
    let part = match args.get(1).map(String::as_str) {
        None => Part::All,
        Some("pictures") => Part::Pictures,
        Some("server") => Part::Server,
        Some("mission-page") => Part::MissionPage,
        Some("first-load") => Part::FirstLoad,
        Some(other) => {
            eprintln!("{other:?}: usage: bench [DIST [pictures|server|mission-page|first-load]]");
            std::process::exit(2)
        }
    };
    tokio::runtime::Runtime::new()
        .expect("runtime")
        .block_on(dashboard(dist, part));
}

/// Which figures to take: all of them, or one part when working on it.
#[derive(PartialEq)]
enum Part {
    All,
    /// The pictures in the browser.
    Pictures,
    /// The API's latency, throughput and approval figures.
    Server,
    /// The mission page of many tasks in the browser.
    MissionPage,
    /// The command center's first load and the lazy pages' first visits.
    FirstLoad,
}

const AGENTS_USAGE: &str = "usage: bench agents [--agents 50,200,500] [--seconds 20] [--pollers 20] [--server PATH] [--no-deep-queue] [--lockstep] [--rounds N] [--database-url postgres://… [--replicas N]]";

/// `bench agents`: the server is a child process (`buildd-server` beside this binary unless
/// `--server` names one); the agents share one runtime thread, leaving the other cores to it.
fn agents(args: &[String]) {
    let mut plan = buildd_testkit::agents::Plan::default();
    let mut server = std::env::current_exe()
        .expect("this binary")
        .with_file_name("buildd-server");
    let mut deep_queue = true;
    let (mut database_url, mut replicas) = (None, 1);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next().cloned().unwrap_or_else(|| {
                eprintln!("{arg} needs a value\n{AGENTS_USAGE}");
                std::process::exit(2)
            })
        };
        let number = |v: &str| -> usize {
            v.trim().parse().unwrap_or_else(|_| {
                eprintln!("{v:?} is not a number\n{AGENTS_USAGE}");
                std::process::exit(2)
            })
        };
        match arg.as_str() {
            "--agents" => plan.agents = value().split(',').map(number).collect(),
            "--seconds" => plan.measure = std::time::Duration::from_secs(number(&value()) as u64),
            "--pollers" => plan.pollers = number(&value()),
            "--server" => server = value().into(),
            "--no-deep-queue" => deep_queue = false,
            "--lockstep" => plan.lockstep = true,
            "--rounds" => plan.rounds = number(&value()).max(1),
            "--database-url" => database_url = Some(value()),
            "--replicas" => replicas = number(&value()).max(1),
            _ => {
                eprintln!("{AGENTS_USAGE}");
                std::process::exit(2)
            }
        }
    }
    if let Some(url) = database_url {
        plan.database = buildd_testkit::agents::Database::Postgres { url, replicas };
        // The deep queue is written straight into a SQLite file.
        deep_queue = false;
    }
    assert!(
        server.is_file(),
        "no server binary at {}: build it with `cargo build --profile server -p buildd-server`",
        server.display()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        if deep_queue {
            buildd_testkit::agents::deep_queue(&server).await;
        }
        buildd_testkit::agents_rounds::run(&server, &plan).await;
    });
}

async fn dashboard(dist: String, part: Part) {
    // As `buildd-server serve` logs, with the lines going nowhere.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("info,sqlx=warn"))
        .with_writer(std::io::sink)
        .init();
    std::env::set_var(
        "BUILDD_DIST",
        std::fs::canonicalize(&dist).expect("dist dir"),
    );
    if part == Part::Pictures {
        return pictures::bench().await;
    }
    if part == Part::FirstLoad {
        return first_load().await;
    }
    if part == Part::All {
        sizes(Path::new(&dist));
        buildd_testkit::pictures_bench::print();
        pictures::bench().await;
        first_load().await;
    }
    let server = TestServer::start_empty().await;
    let mission = seed_big_mission(&server).await;
    if part == Part::MissionPage {
        return render_time(&server, &mission).await;
    }
    let runtime = tokio::runtime::Handle::current();
    tokio::task::block_in_place(|| api_latency(&server, &mission, &runtime));
    layers_cost(&server, &mission).await;
    proxy_overhead(&server, &mission).await;
    tokio::task::block_in_place(|| throughput(&server, &mission));
    approve_time(&server).await;
    if part == Part::Server {
        return;
    }
    render_time(&server, &mission).await;
    activity::bench().await;
    idle_traffic().await;
}
