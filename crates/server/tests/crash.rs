//! A server killed (SIGKILL) while groups of writes commit: every write it acknowledged is
//! in the database afterwards, and every write it did not is there whole or not at all.

#![cfg(unix)]

use buildd_server::db::sql;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn server() -> Command {
    Command::new(env!("CARGO_BIN_EXE_buildd-server"))
}

/// `POST path` with `body` over a fresh connection; the status and JSON answer, or `None`
/// when no answer came (the server died).
fn post(addr: &str, path: &str, key: &str, body: &str) -> Option<(u16, serde_json::Value)> {
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status = answer.get(9..12)?.parse().ok()?;
    let json = serde_json::from_str(answer.split_once("\r\n\r\n")?.1).ok()?;
    Some((status, json))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_in_the_middle_of_group_commits_loses_no_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("buildd.db");
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
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().to_string();
    let (status, ws) = post(
        &addr,
        "/api/workspaces",
        &key,
        r#"{"name": "web", "repo": "acme/web"}"#,
    )
    .unwrap();
    assert_eq!(status, 201, "{ws}");
    let workspace = ws["workspace"]["id"].as_str().unwrap().to_string();

    // Writers that keep creating auto missions, each one request writing a mission, its
    // check-in schedule and its first organizer run; what was acknowledged is noted.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..16)
        .map(|w| {
            let (addr, key, workspace) = (addr.clone(), key.clone(), workspace.clone());
            let (acknowledged, stop) = (acknowledged.clone(), stop.clone());
            std::thread::spawn(move || {
                for n in 0.. {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let body = serde_json::json!({"title": format!("crash {w}-{n}"), "workspaceId": workspace});
                    match post(&addr, "/api/missions", &key, &body.to_string()) {
                        Some((201, created)) => acknowledged
                            .lock()
                            .unwrap()
                            .push(created["id"].as_str().unwrap().to_string()),
                        Some((status, answer)) => panic!("{status}: {answer}"),
                        None => break,
                    }
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while acknowledged.lock().unwrap().len() < 150 {
        assert!(Instant::now() < deadline, "too few writes acknowledged");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: signals the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGKILL) }, 0);
    child.wait().unwrap();
    stop.store(true, Ordering::SeqCst);
    for w in writers {
        w.join().unwrap();
    }
    let acknowledged: HashSet<String> = acknowledged.lock().unwrap().iter().cloned().collect();

    let reopened = buildd_server::Db::open(&db).await.unwrap();
    let mut tx = reopened.read().await.unwrap();
    let (verdict,): (String,) = sql::query_as("PRAGMA integrity_check")
        .fetch_one(&mut tx)
        .await
        .unwrap();
    assert_eq!(verdict, "ok");
    // Each mission with its schedule and its organizer run, or nothing of it.
    let missions: Vec<(String, bool, i64)> = sql::query_as(
        "SELECT m.id, \
           EXISTS (SELECT 1 FROM schedules s WHERE s.id = m.schedule_id), \
           (SELECT COUNT(*) FROM tasks t WHERE t.mission_id = m.id AND t.mode = 'planning') \
         FROM missions m",
    )
    .fetch_all(&mut tx)
    .await
    .unwrap();
    for (id, scheduled, runs) in &missions {
        assert!(*scheduled && *runs == 1, "mission {id} is half there");
    }
    let (orphans,): (i64,) = sql::query_as(
        "SELECT (SELECT COUNT(*) FROM tasks WHERE mission_id IS NULL) \
              + (SELECT COUNT(*) FROM schedules s WHERE NOT EXISTS \
                   (SELECT 1 FROM missions m WHERE m.schedule_id = s.id))",
    )
    .fetch_one(&mut tx)
    .await
    .unwrap();
    assert_eq!(orphans, 0, "rows of a mission that is not there");
    let stored: HashSet<String> = missions.into_iter().map(|(id, _, _)| id).collect();
    let lost: Vec<&String> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged, then lost: {lost:?}");
    assert!(stored.len() >= acknowledged.len());
}
