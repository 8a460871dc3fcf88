//! Simulated runners against a real server process, for `cargo xtask bench agents`: each
//! agent claims a task, reports on it every second, completes it after a few reports and
//! claims again, one request a second, over a shared keep-alive client; beside them,
//! dashboard tabs poll the busiest mission page as a browser does (`If-None-Match`, gzip).
//! The agents start spread over one cycle, so their claims and completions are spread as a
//! fleet's are, whose tasks began at different times; `lockstep` starts them all in the
//! same second instead (every runner coming back at once, as after a restart), so each
//! cycle brings one second of nothing but completions and one of nothing but claims.
//! The load steps up by the number of agents and each step prints its rates, latencies,
//! `503`s and errors; with several rounds, each step's medians over them follow.

use buildd_server::db::sql;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::Request;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use std::ffi::OsString;
use std::io::BufRead;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::time::MissedTickBehavior;

/// Progress reports between a claim and the completion.
const REPORTS_PER_TASK: u32 = 5;
/// Seconds of an agent's cycle: the claim, the reports and the completion.
const CYCLE_SECONDS: u64 = REPORTS_PER_TASK as u64 + 2;
/// Tasks per mission seeded for a step: the polled page is one of them.
const TASKS_PER_MISSION: usize = 500;
/// Requests in flight while seeding tasks.
const SEED_CONCURRENCY: usize = 64;

/// How a run steps up.
#[derive(Clone, Debug)]
pub struct Plan {
    pub agents: Vec<usize>,
    /// Dashboard tabs polling the busiest mission page, once a second each.
    pub pollers: usize,
    /// Untimed start of each step, while the agents' first claims settle.
    pub warmup: Duration,
    /// The timed part of each step.
    pub measure: Duration,
    /// Every agent starts in the same second instead of spread over a cycle.
    pub lockstep: bool,
    /// Times the steps are run, each time against a fresh server; more than one adds the
    /// medians ([`crate::agents_rounds`]).
    pub rounds: usize,
    /// What the servers keep their data in.
    pub database: Database,
}

/// SQLite (one server on a file of its own), or a Postgres server: a fresh database on it
/// each round, served by `replicas` servers, the agents' requests going to each in turn.
#[derive(Clone, Debug, Default)]
pub enum Database {
    #[default]
    Sqlite,
    Postgres {
        url: String,
        replicas: usize,
    },
}

impl Default for Plan {
    fn default() -> Self {
        Self {
            // Past the knee too: what happens to the carried rate there is half the point.
            agents: vec![50, 200, 500, 1000, 2000, 4000, 6000, 8000, 10000],
            pollers: 20,
            // Every agent has started, and claimed, before the timing starts.
            warmup: Duration::from_secs(CYCLE_SECONDS + 2),
            measure: Duration::from_secs(20),
            lockstep: false,
            rounds: 1,
            database: Database::Sqlite,
        }
    }
}

/// `buildd-server serve` in a child process (or several, on one Postgres database), on its
/// own database; killed when dropped.
pub struct ServerProcess {
    children: Vec<Child>,
    /// Every server's address, the first's first.
    pub addrs: Vec<SocketAddr>,
    pub admin: String,
    pub worker: String,
    pub db: PathBuf,
    _dir: Option<tempfile::TempDir>,
    /// Dropped once the servers are gone.
    postgres: Option<BenchDatabase>,
}

impl ServerProcess {
    /// A fresh database with an admin and a worker key of team "Bench", served by `binary`.
    pub fn start(binary: &Path) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("buildd.db");
        let mut server = Self::start_on(binary, &db);
        server._dir = Some(dir);
        server
    }

    /// `binary` serving the database at `db` (created when missing), with new keys.
    pub fn start_on(binary: &Path, db: &Path) -> Self {
        let on = [OsString::from("--db"), db.into()];
        let admin = create_key(binary, &on, "admin");
        let worker = create_key(binary, &on, "worker");
        let (child, addr) = serve(binary, &on);
        Self {
            children: vec![child],
            addrs: vec![addr],
            admin,
            worker,
            db: db.to_path_buf(),
            _dir: None,
            postgres: None,
        }
    }

    /// A fresh database on the Postgres server of `url`, with new keys, served by
    /// `replicas` servers of `binary`.
    pub async fn start_postgres(binary: &Path, url: &str, replicas: usize) -> Self {
        let database = BenchDatabase::create(url).await;
        let on = [
            OsString::from("--database-url"),
            database.url.clone().into(),
        ];
        let admin = create_key(binary, &on, "admin");
        let worker = create_key(binary, &on, "worker");
        let (children, addrs): (Vec<Child>, Vec<SocketAddr>) =
            (0..replicas.max(1)).map(|_| serve(binary, &on)).unzip();
        Self {
            children,
            addrs,
            admin,
            worker,
            db: PathBuf::new(),
            _dir: None,
            postgres: Some(database),
        }
    }

    /// A server for `plan`'s database, fresh.
    pub async fn start_for(binary: &Path, database: &Database) -> Self {
        match database {
            Database::Sqlite => Self::start(binary),
            Database::Postgres { url, replicas } => {
                Self::start_postgres(binary, url, *replicas).await
            }
        }
    }

    /// On Postgres, the database's statistics gathered, as autovacuum keeps them on a
    /// database in use: a database made a moment ago is planned as if its tables were
    /// empty until autovacuum's next round, up to a minute later.
    pub async fn analyzed(&self) {
        if let Some(database) = &self.postgres {
            run_on(&database.url, "ANALYZE").await;
        }
    }

    /// Every server's process id.
    pub fn pids(&self) -> Vec<u32> {
        self.children.iter().map(Child::id).collect()
    }

    /// Kills server `i`, as a machine lost would.
    pub fn kill(&mut self, i: usize) {
        let _ = self.children[i].kill();
        let _ = self.children[i].wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `binary serve` on a port of its own, on the database `on` names; its address.
fn serve(binary: &Path, on: &[OsString]) -> (Child, SocketAddr) {
    let mut child = Command::new(binary)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(on)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", binary.display()));
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the server's first line");
    let addr = line
        .trim()
        .rsplit("http://")
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}

/// A database of its own on a Postgres server, dropped with it.
struct BenchDatabase {
    /// The server's URL, naming the database the bench was given.
    given: String,
    name: String,
    url: String,
}

impl BenchDatabase {
    async fn create(given: &str) -> Self {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "buildd_bench_{}_{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::SeqCst)
        );
        run_on(given, &format!("CREATE DATABASE {name}")).await;
        Self {
            given: given.to_string(),
            url: with_database(given, &name),
            name,
        }
    }
}

impl Drop for BenchDatabase {
    fn drop(&mut self) {
        let (given, drop_it) = (
            self.given.clone(),
            format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
        // Dropped where no runtime may block: a thread and a runtime of its own.
        let _ = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime")
                .block_on(run_on(&given, &drop_it));
        })
        .join();
    }
}

async fn run_on(url: &str, statement: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(url)
        .await
        .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
    sqlx::query(statement)
        .execute(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{statement}: {e} (the bench's role needs CREATEDB)"));
}

/// `url` naming the database `name` instead of its own; its query (a socket's directory,
/// say) kept.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

fn create_key(binary: &Path, on: &[OsString], level: &str) -> String {
    let out = Command::new(binary)
        .args(["key", "create", "--team", "Bench", "--level", level])
        .args(on)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", binary.display()));
    assert!(
        out.status.success(),
        "key create: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("a key")
        .trim()
        .to_string()
}

/// Raises the soft limit on open files to the hard one, as the server does: thousands of
/// agents keep thousands of connections open.
pub fn raise_file_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    limit.rlim_cur
}

/// One answer as the simulator needs it.
pub struct Reply {
    pub status: u16,
    pub body: Bytes,
    pub etag: Option<String>,
    pub retry_after: Option<String>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// One keep-alive connection pool for every agent and tab.
#[derive(Clone)]
pub struct Http {
    client: Client<HttpConnector, Full<Bytes>>,
    /// The servers, each request going to the next in turn, as a load balancer sends them.
    bases: Arc<[String]>,
    next: Arc<AtomicUsize>,
}

impl Http {
    pub fn new(addr: SocketAddr) -> Self {
        Self::over(&[addr])
    }

    /// A client of every server at `addrs` in turn.
    pub fn over(addrs: &[SocketAddr]) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new())
            // The server closes a connection idle for 10 s.
            .pool_idle_timeout(Duration::from_secs(5))
            .build(connector);
        Self {
            client,
            bases: addrs.iter().map(|a| format!("http://{a}")).collect(),
            next: Arc::default(),
        }
    }

    /// A client of each server alone, sharing this one's connections.
    pub fn each(&self) -> Vec<Http> {
        self.bases
            .iter()
            .map(|base| Http {
                client: self.client.clone(),
                bases: Arc::from([base.clone()]),
                next: Arc::default(),
            })
            .collect()
    }

    fn base(&self) -> &str {
        let i = match self.bases.len() {
            1 => 0,
            n => self.next.fetch_add(1, Ordering::Relaxed) % n,
        };
        &self.bases[i]
    }

    /// Sends `method path` with `key`, a JSON body when given, and `If-None-Match` when
    /// `etag` is given; an error is a failure to get any answer.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        key: &str,
        body: Option<&Value>,
        etag: Option<&str>,
    ) -> Result<Reply, String> {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base()))
            .header("Authorization", format!("Bearer {key}"))
            .header("Accept-Encoding", "gzip");
        if body.is_some() {
            request = request.header("Content-Type", "application/json");
        }
        if let Some(tag) = etag {
            request = request.header("If-None-Match", tag);
        }
        let bytes = body.map(Value::to_string).unwrap_or_default();
        let request = request
            .body(Full::new(Bytes::from(bytes)))
            .map_err(|e| e.to_string())?;
        let response = self
            .client
            .request(request)
            .await
            .map_err(|e| format!("{method} {path}: {e:?}"))?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let (status, etag, retry_after) = (
            response.status().as_u16(),
            header("etag"),
            header("retry-after"),
        );
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("{method} {path}: reading the answer: {e}"))?
            .to_bytes();
        Ok(Reply {
            status,
            body,
            etag,
            retry_after,
        })
    }
}

/// What one kind of request got in a step's timed part.
#[derive(Default, Clone)]
pub struct Tally {
    /// Latency of each answer that was not a `503`, ms.
    pub times: Vec<f64>,
    /// `503`s, and how long each took to come back, ms.
    pub shed: Vec<f64>,
    /// `503`s without `Retry-After`.
    pub shed_without_retry_after: u64,
    /// Answers other than 2xx, 304 and 503.
    pub refused: u64,
    /// No answer at all: a refused or reset connection, a broken answer.
    pub errors: u64,
    pub first_error: Option<String>,
}

impl Tally {
    fn record(&mut self, started: Instant, answer: &Result<Reply, String>) {
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        match answer {
            Ok(r) if r.status == 503 => {
                self.shed.push(ms);
                if r.retry_after.is_none() {
                    self.shed_without_retry_after += 1;
                }
            }
            Ok(r) => {
                self.times.push(ms);
                if !(200..300).contains(&r.status) && r.status != 304 {
                    self.refused += 1;
                    if self.first_error.is_none() {
                        self.first_error = Some(format!(
                            "{}: {}",
                            r.status,
                            String::from_utf8_lossy(&r.body)
                        ));
                    }
                }
            }
            Err(e) => {
                self.errors += 1;
                if self.first_error.is_none() {
                    self.first_error = Some(e.clone());
                }
            }
        }
    }

    fn merge(&mut self, other: Tally) {
        self.times.extend(other.times);
        self.shed.extend(other.shed);
        self.shed_without_retry_after += other.shed_without_retry_after;
        self.refused += other.refused;
        self.errors += other.errors;
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
    }

    /// Answers other than `503`, per second of `over`.
    pub fn rate(&self, over: Duration) -> f64 {
        (self.times.len() as u64 - self.refused) as f64 / over.as_secs_f64()
    }

    /// The `p` quantile of the latencies, ms (0 when there were none).
    pub fn quantile(&self, p: f64) -> f64 {
        quantile(&self.times, p)
    }
}

/// The `p` quantile of `values` (0 when empty).
pub fn quantile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// One step's figures.
#[derive(Default, Clone)]
pub struct StepResult {
    pub agents: usize,
    pub claims: Tally,
    pub reports: Tally,
    pub polls: Tally,
    /// Claims that handed out a task.
    pub tasks_claimed: u64,
    /// Writes the agents meant to send in the timed part: one a second each.
    pub offered: f64,
    pub measured: Duration,
    /// The server's own figures over the step, from `/metrics`.
    pub server: ServerFigures,
}

/// What the server's `/metrics` say moved over a step.
#[derive(Default, Clone, Debug)]
pub struct ServerFigures {
    pub commits: f64,
    pub committed_writes: f64,
    pub hold_seconds: f64,
    pub holds: f64,
    pub wait_seconds: f64,
    pub waits: f64,
    pub commit_seconds: f64,
    /// CPU time of the two threads that run writes (SQLite).
    pub write_cpu_seconds: f64,
    /// CPU time of the server processes, all their threads.
    pub servers_cpu_seconds: f64,
    /// CPU time of the machine's Postgres processes.
    pub postgres_cpu_seconds: f64,
}

impl ServerFigures {
    /// The figures as the servers report them now, summed over the servers (zero where they
    /// report none), with the CPU time the servers (`pids`) and Postgres have used.
    pub async fn read(http: &Http, admin: &str, pids: &[u32]) -> Self {
        let mut text = String::new();
        for server in http.each() {
            if let Ok(r) = server.send("GET", "/metrics", admin, None, None).await {
                if r.status == 200 {
                    text.push_str(&String::from_utf8_lossy(&r.body));
                }
            }
        }
        let value = |name: &str| {
            text.lines()
                .filter(|l| l.starts_with(name) && l[name.len()..].starts_with([' ', '{']))
                .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
                .sum::<f64>()
        };
        Self {
            commits: value("buildd_db_commits_total"),
            committed_writes: value("buildd_db_committed_writes_total"),
            hold_seconds: value("buildd_db_write_hold_seconds_sum"),
            holds: value("buildd_db_write_hold_seconds_count"),
            wait_seconds: value("buildd_db_write_wait_seconds_sum"),
            waits: value("buildd_db_write_wait_seconds_count"),
            commit_seconds: value("buildd_db_commit_seconds_sum"),
            write_cpu_seconds: value("buildd_db_write_cpu_seconds"),
            servers_cpu_seconds: pids.iter().filter_map(|p| cpu_seconds(*p)).sum(),
            postgres_cpu_seconds: postgres_pids().into_iter().filter_map(cpu_seconds).sum(),
        }
    }

    fn since(&self, before: &Self) -> Self {
        Self {
            commits: self.commits - before.commits,
            committed_writes: self.committed_writes - before.committed_writes,
            hold_seconds: self.hold_seconds - before.hold_seconds,
            holds: self.holds - before.holds,
            wait_seconds: self.wait_seconds - before.wait_seconds,
            waits: self.waits - before.waits,
            commit_seconds: self.commit_seconds - before.commit_seconds,
            write_cpu_seconds: self.write_cpu_seconds - before.write_cpu_seconds,
            servers_cpu_seconds: self.servers_cpu_seconds - before.servers_cpu_seconds,
            // Postgres's backends come and go; one gone since takes its time with it.
            postgres_cpu_seconds: (self.postgres_cpu_seconds - before.postgres_cpu_seconds)
                .max(0.0),
        }
    }
}

/// The CPU time process `pid` has used, all its threads, in seconds (Linux's `/proc`).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's closing parenthesis: state is the first field, utime the 12th and
    // stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    Some(ticks / per_second)
}

/// The machine's Postgres processes: the postmaster and its backends.
fn postgres_pids() -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|comm| comm.trim() == "postgres")
        })
        .collect()
}

impl StepResult {
    /// Writes answered (claims and reports, not shed) per second.
    pub fn writes_per_second(&self) -> f64 {
        self.claims.rate(self.measured) + self.reports.rate(self.measured)
    }

    pub fn shed(&self) -> usize {
        self.claims.shed.len() + self.reports.shed.len()
    }

    pub fn errors(&self) -> u64 {
        self.claims.errors + self.reports.errors + self.polls.errors
    }
}

/// The window whose requests are counted.
#[derive(Clone, Copy)]
struct Window {
    from: Instant,
    to: Instant,
}

impl Window {
    fn counts(&self, at: Instant) -> bool {
        at >= self.from && at < self.to
    }
}

/// Creates a workspace, `ceil(tasks / TASKS_PER_MISSION)` manual missions and `tasks` pending
/// tasks spread over them in turn; returns the first mission, the one the tabs poll. The
/// tasks have priority `step`, above those an earlier step left unclaimed: claims take the
/// step's own tasks first, so the mission the tabs poll is one the agents work on.
pub async fn seed(http: &Http, admin: &str, step: usize, tasks: usize) -> String {
    let ws = http
        .send(
            "POST",
            "/api/workspaces",
            admin,
            Some(&json!({"name": format!("bench-{step}"), "repo": "acme/bench"})),
            None,
        )
        .await
        .expect("workspace");
    let workspace = ws.json()["workspace"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("workspace: {}", String::from_utf8_lossy(&ws.body)))
        .to_string();
    let mut missions = Vec::new();
    for m in 0..tasks.div_ceil(TASKS_PER_MISSION) {
        let body = json!({"title": format!("Bench {step} agents, mission {m}"),
                          "workspaceId": workspace, "orchestrationMode": "manual"});
        let reply = http
            .send("POST", "/api/missions", admin, Some(&body), None)
            .await
            .expect("mission");
        let id = reply.json()["id"]
            .as_str()
            .unwrap_or_else(|| panic!("mission: {}", String::from_utf8_lossy(&reply.body)))
            .to_string();
        missions.push(id);
    }
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let missions = Arc::new(missions);
    let seeders: Vec<_> = (0..SEED_CONCURRENCY)
        .map(|_| {
            let (http, admin, next, missions, workspace) = (
                http.clone(),
                admin.to_string(),
                next.clone(),
                missions.clone(),
                workspace.clone(),
            );
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= tasks {
                        break;
                    }
                    let body = json!({"title": format!("Bench task {i}"), "workspaceId": workspace,
                                      "missionId": missions[i % missions.len()], "priority": step,
                                      "description": "Change one module, with tests."});
                    // A shed or failed request is sent again: every task is wanted.
                    loop {
                        match http
                            .send("POST", "/api/tasks", &admin, Some(&body), None)
                            .await
                        {
                            Ok(r) if r.status == 200 || r.status == 201 => break,
                            Ok(r) if r.status == 503 => {
                                tokio::time::sleep(Duration::from_millis(200)).await
                            }
                            Ok(r) => {
                                panic!("task: {} {}", r.status, String::from_utf8_lossy(&r.body))
                            }
                            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                        }
                    }
                }
            })
        })
        .collect();
    for s in seeders {
        s.await.expect("seeder");
    }
    missions[0].clone()
}

/// One agent: a request a second (claim, reports, completion, claim again), its first at
/// `offset` into the step so the agents do not fire together.
async fn agent(
    http: Http,
    key: Arc<str>,
    index: usize,
    offset: Duration,
    window: Window,
) -> (Tally, Tally, u64) {
    let (mut claims, mut reports, mut claimed) = (Tally::default(), Tally::default(), 0);
    let start = tokio::time::Instant::now() + offset;
    let mut tick = tokio::time::interval_at(start, Duration::from_secs(1));
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let runner = format!("bench-agent-{index}");
    let mut worker: Option<(String, u32)> = None;
    loop {
        tick.tick().await;
        let now = Instant::now();
        if now >= window.to {
            break;
        }
        match worker.take() {
            None => {
                let body = json!({"runner": runner, "maxTasks": 1});
                let answer = http
                    .send("POST", "/api/workers/claim", &key, Some(&body), None)
                    .await;
                let got = answer
                    .as_ref()
                    .ok()
                    .filter(|r| r.status == 200)
                    .and_then(|r| r.json()["workers"][0]["id"].as_str().map(str::to_string));
                if window.counts(now) {
                    claims.record(now, &answer);
                    claimed += u64::from(got.is_some());
                }
                worker = got.map(|id| (id, 0));
                back_off(&mut tick, &answer);
            }
            Some((id, done)) => {
                let body = if done < REPORTS_PER_TASK {
                    json!({"status": "running", "currentAction": format!("Step {} of the change", done + 1)})
                } else {
                    json!({"status": "completed", "summary": "Changed the module; tests pass."})
                };
                let path = format!("/api/workers/{id}");
                let answer = http.send("PATCH", &path, &key, Some(&body), None).await;
                if window.counts(now) {
                    reports.record(now, &answer);
                }
                back_off(&mut tick, &answer);
                let status = answer.as_ref().map(|r| r.status).unwrap_or(0);
                worker = match status {
                    // Buildd's runner queues a report the server could not take and sends it
                    // again later; here, the next second.
                    503 | 0 => Some((id, done)),
                    200 if done < REPORTS_PER_TASK => Some((id, done + 1)),
                    _ => None,
                };
            }
        }
    }
    (claims, reports, claimed)
}

/// After a `503`, the agent's next request waits what its `Retry-After` says, counted from
/// now (Buildd's runner waits longer still: it replays a refused report from its outbox
/// after 30 s).
fn back_off(tick: &mut tokio::time::Interval, answer: &Result<Reply, String>) {
    let told = answer
        .as_ref()
        .ok()
        .filter(|r| r.status == 503)
        .and_then(|r| r.retry_after.as_deref()?.parse::<u64>().ok());
    if let Some(seconds) = told {
        tick.reset_after(Duration::from_secs(seconds));
    }
}

/// One dashboard tab: the mission page once a second, sending back the `ETag` it holds.
async fn poller(
    http: Http,
    key: Arc<str>,
    path: String,
    offset: Duration,
    window: Window,
) -> Tally {
    let mut polls = Tally::default();
    let mut tick =
        tokio::time::interval_at(tokio::time::Instant::now() + offset, Duration::from_secs(1));
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut etag: Option<String> = None;
    loop {
        tick.tick().await;
        let now = Instant::now();
        if now >= window.to {
            break;
        }
        let answer = http.send("GET", &path, &key, None, etag.as_deref()).await;
        if let Ok(r) = &answer {
            if r.status == 200 {
                etag = r.etag.clone();
            }
        }
        if window.counts(now) {
            polls.record(now, &answer);
        }
    }
    polls
}

/// Runs one step of `agents` against the server at `http`, seeding the tasks they need.
pub async fn step(
    http: &Http,
    server: &ServerProcess,
    agents: usize,
    plan: &Plan,
    index: usize,
) -> StepResult {
    let cycles = ((plan.warmup + plan.measure).as_secs() / CYCLE_SECONDS) as usize;
    let tasks = agents * (cycles + 1);
    let mission = seed(http, &server.admin, index, tasks).await;
    server.analyzed().await;
    let started = Instant::now();
    let window = Window {
        from: started + plan.warmup,
        to: started + plan.warmup + plan.measure,
    };
    let key: Arc<str> = server.worker.as_str().into();
    let admin: Arc<str> = server.admin.as_str().into();
    let spread = |i: usize, n: usize, seconds: u64| {
        Duration::from_micros((i as u64 * seconds * 1_000_000) / n as u64)
    };
    let start_within = if plan.lockstep { 1 } else { CYCLE_SECONDS };
    let runners: Vec<_> = (0..agents)
        .map(|i| {
            tokio::spawn(agent(
                http.clone(),
                key.clone(),
                i,
                spread(i, agents, start_within),
                window,
            ))
        })
        .collect();
    let path = format!("/api/missions/{mission}");
    let tabs: Vec<_> = (0..plan.pollers)
        .map(|i| {
            tokio::spawn(poller(
                http.clone(),
                admin.clone(),
                path.clone(),
                spread(i, plan.pollers, 1),
                window,
            ))
        })
        .collect();
    // The server's figures over the timed part.
    tokio::time::sleep_until((window.from).into()).await;
    let pids = server.pids();
    let before = ServerFigures::read(http, &server.admin, &pids).await;
    tokio::time::sleep_until((window.to).into()).await;
    let figures = ServerFigures::read(http, &server.admin, &pids)
        .await
        .since(&before);
    let mut result = StepResult {
        agents,
        offered: agents as f64,
        measured: plan.measure,
        server: figures,
        ..StepResult::default()
    };
    for r in runners {
        let (claims, reports, claimed) = r.await.expect("agent");
        result.claims.merge(claims);
        result.reports.merge(reports);
        result.tasks_claimed += claimed;
    }
    for t in tabs {
        result.polls.merge(t.await.expect("tab"));
    }
    result
}

/// The header of [`print_step`]'s lines.
pub fn print_header() {
    println!(
        "  {:>6} {:>8} {:>8} | {:>7} {:>7} {:>8} | {:>8} {:>7} {:>8} | {:>6} {:>7} {:>7} | {:>6} {:>6}",
        "agents", "writes/s", "offered", "claim/s", "p50 ms", "p99 ms", "report/s", "p50 ms", "p99 ms",
        "poll/s", "p50 ms", "p99 ms", "503s", "errors"
    );
}

pub fn print_step(s: &StepResult) {
    let over = s.measured;
    println!(
        "  {:>6} {:>8.0} {:>8.0} | {:>7.0} {:>7.1} {:>8.1} | {:>8.0} {:>7.1} {:>8.1} | {:>6.1} {:>7.1} {:>7.1} | {:>6} {:>6}",
        s.agents,
        s.writes_per_second(),
        s.offered,
        s.claims.rate(over),
        s.claims.quantile(0.5),
        s.claims.quantile(0.99),
        s.reports.rate(over),
        s.reports.quantile(0.5),
        s.reports.quantile(0.99),
        s.polls.rate(over),
        s.polls.quantile(0.5),
        s.polls.quantile(0.99),
        s.shed(),
        s.errors(),
    );
    let shed: Vec<f64> = s
        .claims
        .shed
        .iter()
        .chain(&s.reports.shed)
        .copied()
        .collect();
    if !shed.is_empty() {
        let missing = s.claims.shed_without_retry_after + s.reports.shed_without_retry_after;
        println!(
            "         503s answered in p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {missing} without Retry-After",
            quantile(&shed, 0.5),
            quantile(&shed, 0.99),
            quantile(&shed, 1.0)
        );
    }
    let f = &s.server;
    if f.commits > 0.0 {
        println!(
            "         server: {:.0} commits/s of {:.1} writes each, {:.2} ms per commit; a write held the writer {:.2} ms and waited for it {:.2} ms on average",
            f.commits / over.as_secs_f64(),
            f.committed_writes / f.commits,
            1000.0 * f.commit_seconds / f.commits,
            1000.0 * f.hold_seconds / f.holds.max(1.0),
            1000.0 * f.wait_seconds / f.waits.max(1.0),
        );
        // What a write costs the two write threads: it moves with the machine's speed as
        // much as with the load.
        if f.write_cpu_seconds > 0.0 && f.committed_writes > 0.0 {
            println!(
                "         the write threads used {:.0}% of a CPU, {:.0} µs per write",
                100.0 * f.write_cpu_seconds / over.as_secs_f64(),
                1e6 * f.write_cpu_seconds / f.committed_writes,
            );
        }
    }
    // Where the time went: the servers' processes and Postgres's, per request answered.
    let answered = [&s.claims, &s.reports, &s.polls]
        .iter()
        .map(|t| t.times.len() + t.shed.len())
        .sum::<usize>() as f64;
    if f.servers_cpu_seconds > 0.0 && answered > 0.0 {
        let per = |cpu: f64| 1e6 * cpu / answered;
        let mut line = format!(
            "         CPU: the servers {:.0}% of a CPU ({:.0} µs a request)",
            100.0 * f.servers_cpu_seconds / over.as_secs_f64(),
            per(f.servers_cpu_seconds),
        );
        if f.postgres_cpu_seconds > 0.0 {
            line.push_str(&format!(
                ", Postgres {:.0}% ({:.0} µs a request)",
                100.0 * f.postgres_cpu_seconds / over.as_secs_f64(),
                per(f.postgres_cpu_seconds),
            ));
        }
        println!("{line}");
    }
    let refused = s.claims.refused + s.reports.refused + s.polls.refused;
    if refused > 0 || s.errors() > 0 {
        let first = [&s.claims, &s.reports, &s.polls]
            .iter()
            .find_map(|t| t.first_error.clone())
            .unwrap_or_default();
        println!(
            "         {refused} other refusals, {} errors; first: {first}",
            s.errors()
        );
    }
}

/// Whether `answered` writes a second kept up with `offered`: the knee's rule.
pub(crate) fn kept_up(answered: f64, offered: f64) -> bool {
    answered >= 0.95 * offered
}

/// Where the offered load stops being carried: the last step whose answered writes kept up
/// with what was offered ([`kept_up`]), and the one after it.
pub fn print_knee(steps: &[StepResult]) {
    let held = |s: &StepResult| kept_up(s.writes_per_second(), s.offered);
    let ceiling = steps
        .iter()
        .map(StepResult::writes_per_second)
        .fold(0.0, f64::max);
    let knee = steps.iter().position(|s| !held(s));
    match knee {
        None => println!(
            "\n  knee: not reached; every step's writes were carried (up to {ceiling:.0} writes/s)"
        ),
        Some(0) => println!(
            "\n  knee: below {} agents; the most writes answered in a step: {ceiling:.0}/s",
            steps[0].agents
        ),
        Some(i) => println!(
            "\n  knee: between {} and {} agents; the most writes answered in a step: {ceiling:.0}/s",
            steps[i - 1].agents,
            steps[i].agents
        ),
    }
    if let Some(knee) = knee {
        let least = steps[knee..]
            .iter()
            .map(StepResult::writes_per_second)
            .fold(f64::INFINITY, f64::min);
        println!(
            "  past the knee: at least {least:.0} writes/s answered in every step, {:.0}% of the most",
            100.0 * least / ceiling.max(1.0)
        );
    }
    let within = steps
        .iter()
        .take_while(|s| {
            held(s)
                && s.reports.quantile(0.99) <= 50.0
                && s.claims.quantile(0.99) <= 100.0
                && s.polls.quantile(0.99) <= 50.0
                && s.errors() == 0
        })
        .last();
    match within {
        Some(s) => println!(
            "  within the goals (report p99 <= 50 ms, claim p99 <= 100 ms, poll p99 <= 50 ms, no errors) up to {} agents",
            s.agents
        ),
        None => println!("  no step was within the goals (report p99 <= 50 ms, claim p99 <= 100 ms, poll p99 <= 50 ms, no errors)"),
    }
}

/// Raises the open-file limit for the agents' connections and says what the run does.
pub(crate) fn announce(binary: &Path, plan: &Plan) {
    let files = raise_file_limit();
    println!(
        "\nSimulated agents: claim, a report a second, complete after {REPORTS_PER_TASK} reports, claim again; {} dashboard tabs poll the busiest mission page every second",
        plan.pollers
    );
    println!(
        "  {}",
        if plan.lockstep {
            "agents start in the same second (lockstep): each cycle has a second of completions and one of claims"
        } else {
            "agents start spread over a cycle, as a fleet's tasks are (--lockstep starts them together)"
        }
    );
    let database = match &plan.database {
        Database::Sqlite => "one server, SQLite on disk with synchronous=FULL".to_string(),
        Database::Postgres { replicas, .. } => format!(
            "{replicas} server{} on a fresh Postgres database each round, requests to each in turn",
            if *replicas == 1 { "" } else { "s" }
        ),
    };
    println!(
        "  server {} (release), {database}; {} s timed after {} s per step; open-file limit {files}",
        binary.display(),
        plan.measure.as_secs(),
        plan.warmup.as_secs()
    );
}

/// Every step of `plan` against one server started from `binary`.
pub(crate) async fn run_round(binary: &Path, plan: &Plan) -> Vec<StepResult> {
    let server = ServerProcess::start_for(binary, &plan.database).await;
    let http = Http::over(&server.addrs);
    print_header();
    let mut results = Vec::new();
    for (i, &agents) in plan.agents.iter().enumerate() {
        let result = step(&http, &server, agents, plan, i).await;
        print_step(&result);
        results.push(result);
        // What the step left in flight settles before the next one.
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    print_knee(&results);
    results
}

/// Claims against a deep queue: 100,000 finished tasks and 10,000 pending, half of them
/// blocked by a dependency, written straight into the database before `binary` serves it.
/// Prints the latency of claims that take a task and of claims that find nothing to take.
pub async fn deep_queue(binary: &Path) {
    const FINISHED: usize = 100_000;
    const PENDING: usize = 10_000;
    const CLAIMS: usize = 300;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("buildd.db");
    // Creates and migrates the database, with the team.
    create_key(
        binary,
        &[OsString::from("--db"), path.clone().into()],
        "admin",
    );
    let db = buildd_server::Db::open(&path).await.expect("database");
    let mut tx = db.write().await.expect("transaction");
    let (team,): (String,) = sql::query_as("SELECT id FROM teams WHERE name = 'Bench'")
        .fetch_one(&mut tx)
        .await
        .expect("team");
    let at = "2026-01-01T00:00:00.000Z";
    for ws in ["deep-ready", "deep-blocked"] {
        sql::query("INSERT INTO workspaces (id, team_id, name, repo, created_at, updated_at) VALUES (?1, ?2, ?1, 'acme/deep', ?3, ?3)")
            .bind(ws).bind(&team).bind(at).execute(&mut tx).await.expect("workspace");
    }
    sql::query("INSERT INTO missions (id, team_id, workspace_id, title, status, orchestration_mode, created_at, updated_at) VALUES ('deep', ?1, 'deep-ready', 'Deep queue', 'active', 'manual', ?2, ?2)")
        .bind(&team).bind(at).execute(&mut tx).await.expect("mission");
    let insert = "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, status, depends_on, created_at, updated_at) \
                  VALUES (?1, ?2, ?3, 'deep', ?1, ?4, ?5, ?6, ?6)";
    for i in 0..FINISHED + PENDING {
        let (id, workspace, status, deps) = if i < FINISHED {
            (
                format!("done-{i:06}"),
                "deep-ready",
                "completed",
                "[]".to_string(),
            )
        } else if i < FINISHED + PENDING / 2 {
            (
                format!("ready-{i:06}"),
                "deep-ready",
                "pending",
                "[]".to_string(),
            )
        } else {
            // Waits on a pending task of the other workspace.
            let on = format!("ready-{:06}", i - PENDING / 2);
            (
                format!("blocked-{i:06}"),
                "deep-blocked",
                "pending",
                format!("[\"{on}\"]"),
            )
        };
        let created = format!(
            "2026-01-01T{:02}:{:02}:{:02}.000Z",
            (i / 3600) % 24,
            (i / 60) % 60,
            i % 60
        );
        sql::query(insert)
            .bind(&id)
            .bind(&team)
            .bind(workspace)
            .bind(status)
            .bind(&deps)
            .bind(&created)
            .execute(&mut tx)
            .await
            .expect("task");
    }
    tx.commit().await.expect("commit");
    db.close().await;

    let server = ServerProcess::start_on(binary, &path);
    let http = Http::new(server.addrs[0]);
    let times = |body: Value| {
        let (http, key) = (http.clone(), server.worker.clone());
        async move {
            let mut tally = Tally::default();
            for _ in 0..CLAIMS {
                let started = Instant::now();
                let answer = http
                    .send("POST", "/api/workers/claim", &key, Some(&body), None)
                    .await;
                tally.record(started, &answer);
            }
            tally
        }
    };
    let took = times(json!({"runner": "deep", "maxTasks": 1})).await;
    let empty =
        times(json!({"runner": "deep", "maxTasks": 1, "workspaceId": "deep-blocked"})).await;
    let last = http
        .send(
            "POST",
            "/api/workers/claim",
            &server.worker,
            Some(&json!({"runner": "deep", "workspaceId": "deep-blocked"})),
            None,
        )
        .await
        .map(|r| r.json()["diagnostics"]["reason"].clone())
        .unwrap_or(Value::Null);
    println!("\nClaims with {FINISHED} finished and {PENDING} pending tasks ({} of them blocked), one after another", PENDING / 2);
    for (name, t) in [
        ("claim that takes a task", &took),
        ("claim that finds none", &empty),
    ] {
        println!(
            "  {name:<26} p50 {:>7.2} ms   p99 {:>7.2} ms   ({} claims, {} refused or failed)",
            t.quantile(0.5),
            t.quantile(0.99),
            t.times.len(),
            t.refused + t.errors
        );
    }
    println!("  the empty claim says why: {last}");
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn a_bench_database_is_named_on_the_given_server_with_its_query_kept() {
        assert_eq!(
            with_database("postgres://u:p@db:5432/postgres?host=/tmp/pg", "bench_1"),
            "postgres://u:p@db:5432/bench_1?host=/tmp/pg"
        );
        assert_eq!(with_database("postgres://db", "b"), "postgres://db/b");
        assert_eq!(with_database("postgres://db/x", "b"), "postgres://db/b");
    }
}
