//! The `buildd-server` command line, run as a person or a CI job would.

use std::process::Command;

fn server() -> Command {
    Command::new(env!("CARGO_BIN_EXE_buildd-server"))
}

#[test]
fn classify_migrations_prints_each_verdict_and_fails_on_contract() {
    let dir = tempfile::tempdir().unwrap();
    let safe = dir.path().join("0001_notes.sql");
    std::fs::write(
        &safe,
        "CREATE TABLE notes (id text);\nCREATE INDEX notes_id ON notes (id);\n",
    )
    .unwrap();
    let out = server()
        .arg("classify-migrations")
        .arg(&safe)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("EXPAND    creates table notes"), "{text}");
    assert!(text.contains("EXPAND    creates index notes_id"), "{text}");

    let risky = dir.path().join("0002_drop.sql");
    std::fs::write(&risky, "ALTER TABLE notes DROP COLUMN body;").unwrap();
    let out = server()
        .arg("classify-migrations")
        .arg(&safe)
        .arg(&risky)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("CONTRACT  drops column notes.body"), "{text}");

    let out = server()
        .arg("classify-migrations")
        .arg(dir.path().join("missing.sql"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("missing.sql"));
}

#[tokio::test]
async fn key_create_prints_the_key_and_stores_only_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("keys.db");
    let out = server()
        .args([
            "key", "create", "--level", "worker", "--team", "Ops", "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = String::from_utf8(out.stdout).unwrap();
    assert!(
        key.trim().starts_with("bld_") && key.trim().len() == 68,
        "{key}"
    );
}

/// `serve` in a subprocess, stopped by `signal`: it exits 0 within the drain bound, a client
/// that never finished its request head notwithstanding, and an open change stream ends
/// properly (its last chunk sent) rather than being cut when the drain runs out.
#[cfg(unix)]
fn stops_cleanly_on(signal: i32) {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let out = server()
        .args(["key", "create", "--level", "admin", "--team", "Ops", "--db"])
        .arg(dir.path().join("buildd.db"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let key = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let mut child = server()
        // No check-in grace is a valid setting.
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--checkin-grace",
            "0s",
            "--db",
        ])
        .arg(dir.path().join("buildd.db"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    let mut stuck = std::net::TcpStream::connect(&addr).unwrap();
    stuck.write_all(b"GET /api/missions HTTP/1.1\r\n").unwrap();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\r\n"
    )
    .unwrap();
    let mut heard = Vec::new();
    while !String::from_utf8_lossy(&heard).contains("retry: 2000") {
        let mut buf = [0u8; 1024];
        let n = stream.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "the stream opened: {}",
            String::from_utf8_lossy(&heard)
        );
        heard.extend_from_slice(&buf[..n]);
    }
    // SAFETY: signals the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(std::time::Instant::now() < deadline, "still running");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    stream.read_to_end(&mut heard).unwrap();
    let heard = String::from_utf8_lossy(&heard);
    assert!(heard.starts_with("HTTP/1.1 200"), "{heard}");
    assert!(
        heard.ends_with("0\r\n\r\n"),
        "the stream ended with its last chunk: {heard:?}"
    );
}

#[cfg(unix)]
#[test]
fn serve_stops_cleanly_on_sigterm() {
    stops_cleanly_on(libc::SIGTERM);
}

#[cfg(unix)]
#[test]
fn serve_stops_cleanly_on_sigint() {
    stops_cleanly_on(libc::SIGINT);
}

/// What `serve` with `args` says as it refuses them as a usage error (exit code 2).
fn refused(args: &[&str]) -> String {
    let out = server().arg("serve").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_refused_duration_says_what_is_accepted() {
    let text = refused(&["--checkin-grace", "two hours"]);
    assert!(text.contains("--checkin-grace"), "{text}");
    assert!(text.contains("a number and a unit, s, m or h"), "{text}");
    let text = refused(&["--checkin-interval", "0s"]);
    assert!(text.contains("more than 0"), "{text}");
}

#[test]
fn a_refused_writes_cpu_says_what_is_accepted() {
    let text = refused(&["--writes-cpu", "fast"]);
    assert!(text.contains("--writes-cpu"), "{text}");
    assert!(text.contains("a CPU number, auto or none"), "{text}");
}

/// The server says where its writes run, on the CPU asked for; one it may not use is refused
/// before anything is served, and `none` pins nothing.
#[cfg(target_os = "linux")]
#[test]
fn serve_runs_its_writes_on_the_cpu_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let out = server()
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--writes-cpu",
            "4096",
            "--db",
        ])
        .arg(dir.path().join("refused.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(
        text.contains("--writes-cpu 4096: this process may run on CPUs"),
        "{text}"
    );
    let cpu = buildd_server::db::cpu::allowed_cpus().unwrap()[0].to_string();
    let (child, addr, _) = serve_with(dir.path(), &["--writes-cpu", &cpu]);
    assert_eq!(http(&addr, "GET", "/readyz", "", "").0, 200);
    let stderr = stop(child);
    assert!(
        stderr.contains(&format!("writes run on CPU {cpu} (threads ")),
        "{stderr}"
    );
    let none = tempfile::tempdir().unwrap();
    let (child, _, _) = serve_with(none.path(), &["--writes-cpu", "none"]);
    let stderr = stop(child);
    assert!(!stderr.contains("writes run on CPU"), "{stderr}");
}

/// `GET` or `POST` over a fresh connection; the status and the body.
#[cfg(unix)]
fn http(addr: &str, method: &str, path: &str, key: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_string();
    (status, body)
}

/// `serve` on a fresh database with `args`, its stderr captured; the child, its address and
/// an admin key.
#[cfg(unix)]
fn serve_with(dir: &std::path::Path, args: &[&str]) -> (std::process::Child, String, String) {
    use std::io::{BufRead, BufReader};
    let db = dir.join("buildd.db");
    let out = server()
        .args(["key", "create", "--level", "admin", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success());
    let key = String::from_utf8(out.stdout).unwrap().trim().to_string();
    let mut child = server()
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(&db)
        .args(args)
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    (child, addr, key)
}

/// Stops `child` with SIGTERM; what it wrote to stderr.
#[cfg(unix)]
fn stop(mut child: std::process::Child) -> String {
    use std::io::Read;
    // SAFETY: signals the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(child.wait().unwrap().success(), "{stderr}");
    stderr
}

#[cfg(unix)]
#[test]
fn json_logs_have_one_line_per_request_and_no_key_or_query() {
    let dir = tempfile::tempdir().unwrap();
    let (child, addr, key) = serve_with(dir.path(), &["--log-format", "json"]);
    let (status, _) = http(&addr, "GET", "/healthz", "", "");
    assert_eq!(status, 200);
    let (status, _) = http(
        &addr,
        "GET",
        "/api/missions?workspaceId=secret-query-value",
        &key,
        "",
    );
    assert_eq!(status, 200);
    let stderr = stop(child);
    assert!(!stderr.contains(&key), "{stderr}");
    assert!(!stderr.contains("secret-query-value"), "{stderr}");
    // Log lines are JSON; "Stopped." is said to the person who stopped it.
    let answered: Vec<serde_json::Value> = stderr
        .lines()
        .filter(|l| *l != "Stopped.")
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|_| panic!("{l}")))
        .filter(|l| l["message"] == "answered")
        .collect();
    assert_eq!(answered.len(), 1, "{stderr}");
    let line = &answered[0];
    assert_eq!(line["level"], "INFO");
    assert_eq!(line["status"], 200);
    assert!(line["latency_ms"].is_number(), "{line}");
    assert_eq!(line["span"]["method"], "GET");
    assert_eq!(line["span"]["route"], "/api/missions");
    assert_eq!(line["span"]["path"], "/api/missions");
    assert_eq!(line["span"]["id"].as_str().unwrap().len(), 36, "{line}");
}

#[test]
fn text_logs_into_a_pipe_carry_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (child, addr, key) = serve_with(dir.path(), &[]);
    let (status, _) = http(&addr, "GET", "/api/missions", &key, "");
    assert_eq!(status, 200);
    let stderr = stop(child);
    let answered: Vec<&str> = stderr.lines().filter(|l| l.contains("answered")).collect();
    assert_eq!(answered.len(), 1, "{stderr}");
    assert!(answered[0].contains("path=/api/missions"), "{stderr}");
    assert!(
        !stderr.contains('\x1b'),
        "escape codes in a log written to a pipe: {stderr:?}"
    );
}

#[test]
fn help_tells_how_to_run_the_server_for_months() {
    let out = server().args(["serve", "--help"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for part in [
        "--log-format",
        "RUST_LOG",
        "--metrics-listen",
        "/healthz",
        "/readyz",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
    let out = server().args(["backup", "--help"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("To restore"), "{text}");
}

#[tokio::test]
async fn a_backup_taken_while_serving_holds_every_acknowledged_write() {
    use axum::body::Body;
    use axum::http::Request;
    use buildd_core::AccountLevel;
    use buildd_server::{app, keys, Db};
    use sqlx::{ConnectOptions, Connection};
    use tower::ServiceExt;

    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.db");
    let db = Db::open(&live).await.unwrap();
    let mut tx = db.write().await.unwrap();
    let team = keys::ensure_team(&mut tx, "Ops").await.unwrap();
    let key = keys::create_key(&mut tx, &team, &AccountLevel::Admin, "a")
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let router = app(db.clone(), None);
    let post = |path: &str, body: serde_json::Value| {
        let request = Request::post(path)
            .header("Authorization", format!("Bearer {key}"))
            .header("Content-Type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let router = router.clone();
        async move {
            let response = router.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = http_body_util::BodyExt::collect(response.into_body())
                .await
                .unwrap()
                .to_bytes();
            let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(status, 201, "{body}");
            body
        }
    };
    let workspace = post(
        "/api/workspaces",
        serde_json::json!({"name": "web", "repo": "acme/web"}),
    )
    .await["workspace"]["id"]
        .clone();
    for n in 0..25 {
        post(
            "/api/missions",
            serde_json::json!({"title": format!("Mission {n}"), "workspaceId": workspace}),
        )
        .await;
    }
    // The writes sit in the running server's WAL, not yet in the database file itself.
    let wal = std::fs::metadata(dir.path().join("live.db-wal")).unwrap();
    assert!(wal.len() > 0);

    let copy = dir.path().join("copy.db");
    let out = server()
        .args(["backup", "--db"])
        .arg(&live)
        .arg("--to")
        .arg(&copy)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("passes its integrity check"));
    // The server writes on.
    post(
        "/api/missions",
        serde_json::json!({"title": "After the backup", "workspaceId": workspace}),
    )
    .await;

    let mut opened = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&copy)
        .connect()
        .await
        .unwrap();
    let (verdict,): (String,) = sqlx::query_as("PRAGMA integrity_check")
        .fetch_one(&mut opened)
        .await
        .unwrap();
    assert_eq!(verdict, "ok");
    let titles: Vec<(String,)> = sqlx::query_as("SELECT title FROM missions ORDER BY title")
        .fetch_all(&mut opened)
        .await
        .unwrap();
    assert_eq!(titles.len(), 25);
    assert!(titles.iter().all(|(t,)| t.starts_with("Mission ")));
    opened.close().await.unwrap();

    // A backup never overwrites.
    let size = std::fs::metadata(&copy).unwrap().len();
    let again = server()
        .args(["backup", "--db"])
        .arg(&live)
        .arg("--to")
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    let why = String::from_utf8(again.stderr).unwrap();
    assert!(why.contains("copy.db exists"), "{why}");
    assert_eq!(std::fs::metadata(&copy).unwrap().len(), size);
    let missing = server()
        .args(["backup", "--db"])
        .arg(dir.path().join("none.db"))
        .arg("--to")
        .arg(dir.path().join("other.db"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8(missing.stderr)
        .unwrap()
        .contains("no database there"));
    db.close().await;
}
