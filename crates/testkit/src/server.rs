use crate::http::send_json;
use buildd_core::AccountLevel;
use buildd_server::{app, demo, keys, Db};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The dashboard built by `trunk build --release`: `BUILDD_DIST`, else `dist/` of the
/// package under test (read at run time: a cached test binary may come from another clone).
pub fn dist_dir() -> PathBuf {
    let dist = std::env::var_os("BUILDD_DIST")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(|d| PathBuf::from(d).join("dist")))
        .unwrap_or_else(|| PathBuf::from("dist"));
    assert!(
        dist.join("index.html").exists(),
        "no dashboard build at {}: run `cargo xtask test`, which builds it first",
        dist.display()
    );
    dist
}

/// A server on 127.0.0.1:0 with its own database, stopped when dropped.
pub struct TestServer {
    pub addr: SocketAddr,
    pub db: Db,
    /// An admin key of the demo team.
    pub key: String,
    /// A worker key of the demo team, for playing a runner over the worker protocol.
    pub worker_key: String,
    task: tokio::task::JoinHandle<()>,
    _dir: tempfile::TempDir,
}

impl TestServer {
    /// Starts a server seeded with the demo data and serving the release dashboard.
    pub async fn start_demo() -> Self {
        let server = Self::start_empty().await;
        demo::seed_if_empty(&server.db).await.expect("demo data");
        server
    }

    /// Starts a server whose database holds only the demo team and its admin key.
    pub async fn start_empty() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Db::open(&dir.path().join("buildd.db"))
            .await
            .expect("database");
        let mut tx = db.write().await.expect("transaction");
        let team = keys::ensure_team(&mut tx, demo::DEMO_TEAM)
            .await
            .expect("team");
        let key = keys::create_key(&mut tx, &team, &AccountLevel::Admin, "tests")
            .await
            .expect("key");
        let worker_key = keys::create_key(&mut tx, &team, &AccountLevel::Worker, "test runner")
            .await
            .expect("worker key");
        tx.commit().await.expect("commit");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let router = app(db.clone(), Some(&dist_dir()));
        let task = tokio::spawn(async move {
            axum_serve(listener, router).await;
        });
        Self {
            addr,
            db,
            key,
            worker_key,
            task,
            _dir: dir,
        }
    }

    /// Claims task `task_id` over the worker protocol; returns the worker id.
    pub fn claim(&self, task_id: &str) -> String {
        let (status, body) = send_json(
            self.addr,
            "POST",
            "/api/workers/claim",
            &self.worker_key,
            Some(&json!({"runner": "tests", "taskId": task_id})),
        );
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["workers"][0]["taskId"], task_id, "claim: {body}");
        body["workers"][0]["id"].as_str().unwrap().to_string()
    }

    /// Sends a worker report; returns the answer.
    pub fn report(&self, worker_id: &str, body: Value) -> Value {
        let (status, answer) = send_json(
            self.addr,
            "PATCH",
            &format!("/api/workers/{worker_id}"),
            &self.worker_key,
            Some(&body),
        );
        assert_eq!(status, 200, "{answer}");
        answer
    }

    /// Claims task `task_id` and completes it with `structured_output`, as a runner would.
    pub fn complete_with_output(&self, task_id: &str, structured_output: Value) {
        let worker = self.claim(task_id);
        self.report(
            &worker,
            json!({"status": "completed", "summary": "Planned", "structuredOutput": structured_output}),
        );
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// The dashboard link with the key in its fragment, as `cargo xtask serve` prints it.
    pub fn link(&self) -> String {
        self.url(&format!("/#key={}", self.key))
    }
}

async fn axum_serve(listener: tokio::net::TcpListener, router: axum::Router) {
    let _ = axum::serve(listener, router).await;
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
