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

#[test]
fn a_refused_duration_says_what_is_accepted() {
    let out = server()
        .args(["serve", "--checkin-grace", "two hours"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.contains("--checkin-grace"), "{text}");
    assert!(text.contains("a number and a unit, s, m or h"), "{text}");
    let out = server()
        .args(["serve", "--checkin-interval", "0s"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("more than 0"));
}
