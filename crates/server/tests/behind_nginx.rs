//! The README's example configuration for two servers behind a load balancer
//! (`docs/examples/nginx-two-replicas.conf`), run as written: two `buildd-server serve`
//! processes on one Postgres database, keys made with `key create --database-url`, nginx in
//! front. Requests go to both servers, a change stream through nginx hears a write made
//! through the other server, and with one server killed, reads and writes go on through the
//! other. nginx is Debian's (`cargo xtask test` installs `nginx-light` where it is missing).

use buildd_testkit::agents::ServerProcess;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The example, as the README gives it.
const EXAMPLE: &str = include_str!("../../../docs/examples/nginx-two-replicas.conf");

/// nginx in the foreground on `front`, in front of `servers`, its files in a directory of its
/// own; stopped when dropped.
struct Nginx {
    child: Child,
    _dir: tempfile::TempDir,
}

impl Nginx {
    fn start(front: SocketAddr, servers: &[SocketAddr]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display();
        // Only the addresses change, and where nginx keeps its own files.
        let conf = EXAMPLE
            .replace("127.0.0.1:8081", &servers[0].to_string())
            .replace("127.0.0.1:8082", &servers[1].to_string())
            .replace("127.0.0.1:8080", &front.to_string())
            .replace(
                "http {",
                &format!(
                    "http {{\n    access_log off;\n    client_body_temp_path {d}/body;\n    \
                     proxy_temp_path {d}/proxy;\n    fastcgi_temp_path {d}/fastcgi;\n    \
                     uwsgi_temp_path {d}/uwsgi;\n    scgi_temp_path {d}/scgi;"
                ),
            );
        let conf = format!(
            "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n{conf}"
        );
        let path = dir.path().join("nginx.conf");
        std::fs::write(&path, conf).unwrap();
        let mut child = Command::new(nginx())
            .arg("-c")
            .arg(&path)
            .arg("-p")
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx starts");
        for _ in 0..100 {
            if TcpStream::connect(front).is_ok() {
                return Self { child, _dir: dir };
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        let log = std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default();
        panic!("nginx did not listen on {front}: {log}");
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn nginx() -> &'static Path {
    let path = Path::new("/usr/sbin/nginx");
    assert!(
        path.exists(),
        "no nginx at {}: install Debian's nginx-light (cargo xtask test does)",
        path.display()
    );
    path
}

/// `method path` to `addr` with `key` and a JSON body; the status and the JSON answer.
fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    std::io::Write::write_all(&mut stream, request.as_bytes()).unwrap();
    let (status, bytes) = buildd_testkit::read_response(&mut BufReader::new(stream));
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A free port on loopback.
fn free_address() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// Opens `GET /api/events` through `front` and reads until a change event with an id of
/// at least `count` arrives; the ids heard.
fn hear_through(front: SocketAddr, key: &str, count: i64) -> Vec<i64> {
    let mut stream = TcpStream::connect(front).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let request =
        format!("GET /api/events HTTP/1.1\r\nHost: {front}\r\nAuthorization: Bearer {key}\r\n\r\n");
    std::io::Write::write_all(&mut stream, request.as_bytes()).unwrap();
    let mut ids = Vec::new();
    let mut reader = BufReader::new(stream.by_ref());
    let mut line = String::new();
    while ids.last().is_none_or(|id| *id < count) {
        line.clear();
        let read = reader.read_line(&mut line).expect("the stream goes on");
        assert!(read > 0, "the stream ended after {ids:?}");
        if let Some(id) = line.trim().strip_prefix("id: ") {
            ids.push(id.parse().unwrap());
        }
    }
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_behind_the_example_nginx_serve_as_one_and_outlive_one_gone() {
    let database = buildd_testkit::postgres::fresh_database().await;
    let binary = Path::new(env!("CARGO_BIN_EXE_buildd-server"));
    let mut servers = ServerProcess::start_postgres(binary, &database.url, 2).await;
    let front = free_address();
    let _nginx = Nginx::start(front, &servers.addrs);
    let key = servers.admin.clone();
    let [first, second] = [servers.addrs[0], servers.addrs[1]];

    let workspace = json!({"name": "web", "repo": "acme/web"});
    let (status, body) = call(front, "POST", "/api/workspaces", &key, Some(workspace));
    assert_eq!(status, 201, "{body}");
    for i in 0..4 {
        let mission = json!({"title": format!("Through nginx {i}")});
        let (status, body) = call(front, "POST", "/api/missions", &key, Some(mission));
        assert_eq!(status, 201, "{body}");
    }
    // nginx sent requests to both: each has counted missions filed through it.
    for server in [first, second] {
        let mut stream = TcpStream::connect(server).unwrap();
        let request = format!(
            "GET /metrics HTTP/1.1\r\nHost: {server}\r\nAuthorization: Bearer {key}\r\n\
             Connection: close\r\n\r\n"
        );
        std::io::Write::write_all(&mut stream, request.as_bytes()).unwrap();
        let (_, bytes) = buildd_testkit::read_response(&mut BufReader::new(stream));
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            text.lines()
                .any(|l| l.starts_with("buildd_http_requests_total")
                    && l.contains("route=\"/api/missions\"")
                    && l.contains("method=\"POST\"")),
            "{server} had none of them: {text}"
        );
    }

    // A page's stream through nginx hears a write made through either server.
    let start = hear_through(front, &key, 1)[0];
    let heard = tokio::task::spawn_blocking({
        let key = key.clone();
        move || hear_through(front, &key, start + 1)
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = call(
        second,
        "POST",
        "/api/missions",
        &key,
        Some(json!({"title": "Heard"})),
    );
    assert_eq!(status, 201);
    let heard = heard.await.unwrap();
    assert!(*heard.last().unwrap() > start, "{heard:?}");

    // One server gone: nginx sends everything to the other.
    servers.kill(0);
    for i in 0..4 {
        let mission = json!({"title": format!("After {i}")});
        let (status, body) = call(front, "POST", "/api/missions", &key, Some(mission));
        assert_eq!(status, 201, "{body}");
        let (status, listed) = call(front, "GET", "/api/missions", &key, None);
        assert_eq!(status, 200, "{listed}");
        assert_eq!(listed["missions"].as_array().unwrap().len(), 5 + i + 1);
    }
}
