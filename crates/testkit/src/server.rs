use buildd_core::AccountLevel;
use buildd_server::{app, demo, keys, Db};
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
            task,
            _dir: dir,
        }
    }

    /// Completes a task with `structured_output`, as a worker reporting its result would.
    pub async fn complete_with_output(&self, task_id: &str, structured_output: serde_json::Value) {
        let result =
            serde_json::json!({"summary": "Planned", "structuredOutput": structured_output});
        let mut tx = self.db.write().await.expect("transaction");
        sqlx::query("UPDATE tasks SET status = 'completed', result = ? WHERE id = ?")
            .bind(result.to_string())
            .bind(task_id)
            .execute(&mut *tx)
            .await
            .expect("complete the task");
        tx.commit().await.expect("commit");
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
