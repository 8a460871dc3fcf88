//! A real server on a temporary SQLite file (or, with `BUILDD_TEST_DB=postgres`, two servers
//! on a Postgres database, taking requests in turn), called through the router. The worker verbs
//! (`claim_task`, `report`, `complete_task`, `fail_task`) are buildd-testkit's, shared with
//! the browser tests.

#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use buildd_core::AccountLevel;
use buildd_server::db::sql;
use buildd_server::{app, keys, Db};
pub use buildd_testkit::WorkerVerbs;
use buildd_testkit::{Answer, Api};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

pub struct TestApp {
    pub db: Db,
    pub router: axum::Router,
    pub admin: String,
    pub worker: String,
    pub trigger: String,
    /// An admin key of another team.
    pub other: String,
    pub workspace: String,
    /// Holds the database file; removed with the app.
    dir: tempfile::TempDir,
}

pub const NO_KEY: &str = "";

impl TestApp {
    /// A server on the database `BUILDD_TEST_DB` names (SQLite unless it says postgres). On
    /// Postgres, two servers on the database, each request going to the next in turn as a
    /// load balancer sends them: every test is a test of replicas too.
    pub async fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let db = buildd_testkit::test_db(&dir.path().join("test.db")).await;
        let router = match db.replica().await {
            Some(replica) => in_turn([app(db.clone(), None), app(replica.unwrap(), None)]),
            None => app(db.clone(), None),
        };
        Self::on(db, router, dir).await
    }

    /// A server on a Postgres database of its own, whatever `BUILDD_TEST_DB` says: for what
    /// only Postgres has, such as replicas.
    pub async fn on_postgres() -> Self {
        let database = buildd_testkit::postgres::fresh_database().await;
        let db = Db::open_postgres(&database.url, 8).await.unwrap();
        let router = app(db.clone(), None);
        Self::on(db, router, tempfile::tempdir().unwrap()).await
    }

    /// Another replica of this server (Postgres only): its own router over its own pool of
    /// the same database, with caches of its own.
    pub async fn replica(&self) -> axum::Router {
        let db = self.db.replica().await.expect("a Postgres server").unwrap();
        app(db, None)
    }

    async fn on(db: Db, router: axum::Router, dir: tempfile::TempDir) -> Self {
        // The server's warnings and errors (a 500's cause among them) show with a failed
        // test's output.
        let _ = tracing_subscriber::fmt()
            .with_test_writer()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| "warn".into()),
            )
            .try_init();
        let mut tx = db.write().await.unwrap();
        let team = keys::ensure_team(&mut tx, "Team A").await.unwrap();
        let admin = keys::create_key(&mut tx, &team, &AccountLevel::Admin, "a")
            .await
            .unwrap();
        let worker = keys::create_key(&mut tx, &team, &AccountLevel::Worker, "w")
            .await
            .unwrap();
        let trigger = keys::create_key(&mut tx, &team, &AccountLevel::Trigger, "t")
            .await
            .unwrap();
        let other_team = keys::ensure_team(&mut tx, "Team B").await.unwrap();
        let other = keys::create_key(&mut tx, &other_team, &AccountLevel::Admin, "b")
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let mut this = Self {
            db,
            router,
            admin,
            worker,
            trigger,
            other,
            workspace: String::new(),
            dir,
        };
        let (status, body) = this
            .call(
                "POST",
                "/api/workspaces",
                &this.admin.clone(),
                Some(json!({"name": "web", "repo": "acme/web"})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        this.workspace = body["workspace"]["id"].as_str().unwrap().to_string();
        this
    }

    /// The database file the server writes.
    pub fn db_path(&self) -> std::path::PathBuf {
        self.dir.path().join("test.db")
    }

    /// Sends a request with `key` (none when empty) and a JSON body.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        key: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        self.raw(method, path, key, body.map(|b| b.to_string()))
            .await
    }

    /// Sends a request whose body is sent byte for byte.
    pub async fn raw(
        &self,
        method: &str,
        path: &str,
        key: &str,
        body: Option<String>,
    ) -> (StatusCode, Value) {
        send(&self.router, method, path, key, body).await
    }

    /// A manual mission: it plans only when a test presses Run.
    pub async fn mission(&self, title: &str) -> String {
        self.mission_with(json!({"title": title, "orchestrationMode": "manual"}))
            .await
    }

    /// A mission of the test workspace created with `body`.
    pub async fn mission_with(&self, mut body: Value) -> String {
        body["workspaceId"] = json!(self.workspace);
        let (status, created) = self
            .call("POST", "/api/missions", &self.admin, Some(body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        created["id"].as_str().unwrap().to_string()
    }

    pub async fn task(&self, mission: Option<&str>, title: &str) -> String {
        let (status, body) = self
            .call(
                "POST",
                "/api/tasks",
                &self.admin,
                Some(json!({"title": title, "workspaceId": self.workspace, "missionId": mission})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["id"].as_str().unwrap().to_string()
    }

    /// Records a worker on a task, as the worker protocol would.
    pub async fn worker_on(&self, task: &str, status: &str, pr: Option<i64>, merged: bool) {
        let mut tx = self.db.write().await.unwrap();
        sql::query(
            "INSERT INTO workers (id, task_id, workspace_id, name, runner, status, pr_url, pr_number, \
             merged_at, started_at, created_at, updated_at) \
             VALUES (?, ?, ?, 'w', 'test', ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(uuid_like(task, status))
        .bind(task)
        .bind(&self.workspace)
        .bind(status)
        .bind(pr.map(|n| format!("https://github.com/acme/web/pull/{n}")))
        .bind(pr)
        .bind(merged.then_some("2026-11-29T12:00:00.000Z"))
        .bind("2026-11-29T11:00:00.000Z")
        .bind("2026-11-29T11:00:00.000Z")
        .bind("2026-11-29T11:00:00.000Z")
        .execute(&mut tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }

    /// Completes the mission's organizer run in flight with an empty plan, as its runner
    /// would.
    pub async fn finish_planning(&self, mission: &str) {
        self.finish_run(mission, false).await;
    }

    /// Completes the organizer run in flight with an empty plan that proposes completion.
    pub async fn propose_completion(&self, mission: &str) {
        self.finish_run(mission, true).await;
    }

    async fn finish_run(&self, mission: &str, proposes: bool) {
        let (_, page) = self
            .call(
                "GET",
                &format!("/api/tasks?missionId={mission}&status=pending"),
                &self.admin,
                None,
            )
            .await;
        let run = page["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["title"].as_str().unwrap().starts_with("Mission: "))
            .unwrap_or_else(|| panic!("no organizer run in flight: {page}"))["id"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, body) = self
            .complete_task(
                &run,
                json!({"structuredOutput": {"plan": [], "summary": "Nothing to do",
                                            "missionComplete": proposes}}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    /// PR `number` of `mission` as `GET /api/prs?missionId=` lists it.
    pub async fn pr_json(&self, mission: &str, number: i64) -> Value {
        let (status, list) = self
            .call(
                "GET",
                &format!("/api/prs?missionId={mission}"),
                &self.admin,
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{list}");
        list["prs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["number"] == number)
            .cloned()
            .unwrap_or_else(|| panic!("no PR #{number}: {list}"))
    }

    /// `POST /api/prs/{number}/merge` of the test workspace's PR with `key`.
    pub async fn merge_pr(&self, number: i64, key: &str) -> (StatusCode, Value) {
        self.call(
            "POST",
            &format!("/api/prs/{number}/merge"),
            key,
            Some(json!({"workspaceId": self.workspace})),
        )
        .await
    }

    /// A CI check run "test" on PR `number` at `sha`, reported with the worker key.
    pub async fn check_run(
        &self,
        number: i64,
        sha: &str,
        status: &str,
        conclusion: Option<&str>,
    ) -> (StatusCode, Value) {
        self.call(
            "POST",
            &format!("/api/prs/{number}/checks"),
            &self.worker,
            Some(
                json!({"workspaceId": self.workspace, "headSha": sha, "name": "test",
                        "status": status, "conclusion": conclusion}),
            ),
        )
        .await
    }

    /// `GET /api/missions/{id}`, which must succeed.
    /// `GET /api/tasks/{id}`, which must succeed.
    pub async fn task_json(&self, id: &str) -> Value {
        let (status, body) = self
            .call("GET", &format!("/api/tasks/{id}"), &self.admin, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    pub async fn mission_json(&self, id: &str) -> Value {
        let (status, body) = self
            .call("GET", &format!("/api/missions/{id}"), &self.admin, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    /// `GET /api/missions/{id}/runs`, which must succeed.
    pub async fn runs_json(&self, id: &str) -> Value {
        let (status, body) = self
            .call(
                "GET",
                &format!("/api/missions/{id}/runs"),
                &self.admin,
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    /// The labels of the mission's organizer runs, newest first.
    pub async fn run_labels(&self, id: &str) -> Vec<String> {
        self.runs_json(id).await["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["label"].as_str().unwrap().to_string())
            .collect()
    }

    pub async fn set_task_status(&self, task: &str, status: &str) {
        let (code, body) = self
            .call(
                "PATCH",
                &format!("/api/tasks/{task}"),
                &self.admin,
                Some(json!({"status": status})),
            )
            .await;
        assert_eq!(code, StatusCode::OK, "{body}");
    }
}

/// Through the router in memory, as `call` sends.
impl Api for TestApp {
    fn worker_key(&self) -> &str {
        &self.worker
    }

    async fn send(&self, method: &str, path: &str, key: &str, body: Option<Value>) -> Answer {
        self.call(method, path, key, body).await
    }
}

fn uuid_like(task: &str, status: &str) -> String {
    format!("worker-{task}-{status}-{}", rand_suffix())
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Every key of Buildd's bare mission row.
pub const MISSION_KEYS: [&str; 45] = [
    "id",
    "teamId",
    "workspaceId",
    "title",
    "description",
    "status",
    "costBudgetUsd",
    "priority",
    "defaultOutputRequirement",
    "defaultBackend",
    "scheduleId",
    "parentMissionId",
    "initiativeId",
    "lastEvaluationTaskId",
    "dependsOnMissionId",
    "gateCondition",
    "dependencyMetAt",
    "contextArtifactIds",
    "maxConcurrentTasks",
    "pacingMode",
    "pacingMaxPerHour",
    "lastTaskStartedAt",
    "workingBranch",
    "primaryPrNumber",
    "primaryPrUrl",
    "lastNotifiedSha",
    "requiresReview",
    "mergePolicy",
    "orchestrationMode",
    "decompositionSkipped",
    "isHeld",
    "startAt",
    "startResolution",
    "releasedAt",
    "externalIssueId",
    "externalIssueUrl",
    "goalCriteria",
    "goalCriteriaState",
    "autoVerify",
    "createdByUserId",
    "createdAt",
    "updatedAt",
    "teamId",
    "status",
    "title",
];

pub fn assert_keys(value: &Value, keys: &[&str]) {
    for k in keys {
        assert!(value.get(k).is_some(), "missing key {k} in {value}");
    }
}

/// A router that hands each request to the next of `servers` in turn.
fn in_turn(servers: [axum::Router; 2]) -> axum::Router {
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    axum::Router::new().fallback_service(tower::service_fn(move |request: Request<Body>| {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % servers.len();
        servers[i].clone().oneshot(request)
    }))
}

/// Sends a request to `router`, its body byte for byte; the status and the JSON answer.
pub async fn send(
    router: &axum::Router,
    method: &str,
    path: &str,
    key: &str,
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if !key.is_empty() {
        req = req.header("Authorization", format!("Bearer {key}"));
    }
    if body.is_some() {
        req = req.header("Content-Type", "application/json");
    }
    let req = req
        .body(body.map(Body::from).unwrap_or_else(Body::empty))
        .unwrap();
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()))
    };
    (status, value)
}
