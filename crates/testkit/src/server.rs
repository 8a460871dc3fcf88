use crate::api::{Answer, Api};
use crate::http;
use axum::http::StatusCode;
use buildd_core::AccountLevel;
use buildd_server::{app, demo, keys, Db};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;

/// A wasm chunk of the split dashboard, as the splitter names them: a `split_off!` module
/// (`split_…`) or code shared between them (`chunk_…`).
pub fn is_chunk(name: &str) -> bool {
    name.ends_with(".wasm") && (name.starts_with("chunk_") || name.starts_with("split_"))
}

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

    /// [`TestServer::start_demo`], serving the dashboard in `dist`.
    pub async fn start_demo_serving(dist: &std::path::Path) -> Self {
        let server = Self::start(dist).await;
        demo::seed_if_empty(&server.db).await.expect("demo data");
        server
    }

    /// Starts a server whose database holds only the demo team and its admin key.
    pub async fn start_empty() -> Self {
        Self::start(&dist_dir()).await
    }

    async fn start(dist: &std::path::Path) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = crate::test_db(&dir.path().join("buildd.db")).await;
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
        let router = app(db.clone(), Some(dist));
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

    /// Sends `method path` with the admin key and an optional JSON body.
    pub async fn admin(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        self.send(method, path, &self.key, body).await
    }

    /// `GET path` with the admin key; the answer, whatever its status.
    pub async fn get(&self, path: &str) -> Value {
        self.admin("GET", path, None).await.1
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// The dashboard link with the key in its fragment, as `cargo xtask serve` prints it.
    pub fn link(&self) -> String {
        self.url(&format!("/#key={}", self.key))
    }
}

/// Over the loopback socket, as any client would.
impl Api for TestServer {
    fn worker_key(&self) -> &str {
        &self.worker_key
    }

    async fn send(&self, method: &str, path: &str, key: &str, body: Option<Value>) -> Answer {
        let request = http::request(self.addr, method, path, key, body.as_ref());
        let (status, answer) = http::send(self.addr, request).await;
        (StatusCode::from_u16(status).expect("a status code"), answer)
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
