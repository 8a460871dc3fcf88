//! `buildd-server serve | backup | worker | classify-migrations | key create`.

use buildd_core::migrations::{classify_sql, Verdict};
use buildd_core::AccountLevel;
use buildd_server::db::cpu;
use buildd_server::demo::worker::{fresh_key, ScriptedWorker, WorkerClient};
use buildd_server::serving::{self, Limits};
use buildd_server::upstream::{Upstream, UpstreamOptions};
use buildd_server::{
    app_with_options, demo, keys, metrics_router, scheduler, AppOptions, ChangeFeed, CheckinConfig,
    Db,
};
use clap::{Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

/// Requests allocate and free many short-lived buffers on every thread; with the system
/// allocator that took about a quarter of the HTTP threads' time under load, time taken
/// from the CPU the writes run on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "buildd-server",
    version,
    about = "The Buildd API server, on SQLite or Postgres"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// How log lines are written to stderr: text (for people) or json (one object a line,
    /// for a log collector). A served request logs one line at info: method, route template,
    /// path, status, latency and request id (never a key, a query or a body). RUST_LOG sets
    /// the levels (default: info,sqlx=warn; health probes and scrapes log at debug).
    #[arg(long, global = true, env = "BUILDD_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

#[derive(Clone, Copy, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API under /api and the dashboard from --dist; /healthz and /readyz answer
    /// without a key, /metrics an admin key (or anyone on --metrics-listen).
    Serve {
        /// Address and port to listen on.
        #[arg(long, env = "BUILDD_LISTEN", default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
        #[command(flatten)]
        db: DatabaseArgs,
        /// The built dashboard (the dist/ of `cargo xtask build`) to serve at /. It is only
        /// read: the brotli and gzip copies the build wrote next to its files go to browsers
        /// that accept them, and a file without one goes out as it is.
        #[arg(long, env = "BUILDD_DIST")]
        dist: Option<PathBuf>,
        /// Seed a demo team, workspace and missions into an empty database, and print a
        /// dashboard link with a new admin key of the demo team.
        #[arg(long)]
        demo: bool,
        /// Also run the scripted worker in this process, for the demo team: it claims
        /// tasks, plans, and opens PRs, so the demo moves by itself.
        #[arg(long)]
        worker: bool,
        /// Seconds between the scripted worker's steps.
        #[arg(long, default_value_t = 6.0)]
        worker_pace: f64,
        /// Forward the API to this Buildd (e.g. https://buildd.example) instead of serving
        /// it from the database: the dashboard and the API on one origin, no database.
        #[arg(long, env = "BUILDD_UPSTREAM", conflicts_with_all = ["demo", "worker"])]
        upstream: Option<String>,
        /// A PEM file of certificate authorities the upstream's certificate may chain to,
        /// besides the public ones.
        #[arg(long, env = "BUILDD_UPSTREAM_CA", requires = "upstream")]
        upstream_ca: Option<PathBuf>,
        /// How long the upstream may take to start an answer before the browser gets 504.
        #[arg(long, default_value = "30s", value_parser = parse_duration, requires = "upstream")]
        upstream_timeout: chrono::Duration,
        /// How often each mission's check-in runs (e.g. 1h, 10m, 30s).
        #[arg(long, env = "BUILDD_CHECKIN_INTERVAL", default_value = "1h", value_parser = parse_duration)]
        checkin_interval: chrono::Duration,
        /// A check-in starts no organizer run within this long of the last one (e.g. 2h;
        /// 0s for no grace).
        #[arg(long, env = "BUILDD_CHECKIN_GRACE", default_value = "2h", value_parser = parse_grace)]
        checkin_grace: chrono::Duration,
        /// Serve /metrics (Prometheus text, no key) on this address alone, e.g.
        /// 127.0.0.1:9100, and not on --listen. Without it, /metrics on --listen answers
        /// admin keys only (and, in upstream mode, nobody).
        #[arg(long, env = "BUILDD_METRICS_LISTEN")]
        metrics_listen: Option<SocketAddr>,
        /// The CPU that runs the writes (the write thread and the writer's SQLite thread,
        /// kept together so each statement's hand-off stays on one CPU): a CPU number,
        /// `auto` (the last CPU this process may use, when it may use two or more) or `none`.
        #[arg(long, env = "BUILDD_WRITES_CPU", default_value = "auto", value_parser = parse_writes_cpu)]
        writes_cpu: WritesCpu,
    },
    /// Copy the database into a new file while the server runs (SQLite's VACUUM INTO): every
    /// write acknowledged before the backup began is in it, and the copy passes an
    /// integrity check before this returns. To restore: stop the server, copy the backup
    /// over the database file, remove its -wal and -shm files, start the server.
    Backup {
        #[command(flatten)]
        db: DatabaseArgs,
        /// The backup file to write; it must not exist yet.
        #[arg(long)]
        to: PathBuf,
    },
    /// Run the scripted worker against a Buildd API: it claims tasks with a worker key and
    /// completes them (planning runs with a plan, execution tasks with a PR).
    Worker {
        /// The API's base URL.
        #[arg(long, env = "BUILDD_URL", default_value = "http://127.0.0.1:8080")]
        url: String,
        /// A worker-level API key.
        #[arg(long, env = "BUILDD_API_KEY")]
        key: String,
        /// Seconds between steps.
        #[arg(long, default_value_t = 6.0)]
        pace: f64,
    },
    /// Classify migration files statement by statement (EXPAND or CONTRACT, with the reason).
    /// Exits 1 when anything is CONTRACT, so CI can run the same classifier.
    ClassifyMigrations {
        /// SQL migration files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Manage API keys.
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
}

/// Where the data is: a SQLite file (the default), or a Postgres database that several
/// replicas of the server may share.
#[derive(clap::Args)]
struct DatabaseArgs {
    /// SQLite database file; created and migrated when missing.
    #[arg(long, env = "BUILDD_DB", default_value = "buildd.db")]
    db: PathBuf,
    /// A Postgres (15 or newer) database in place of the SQLite file, as
    /// postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE; migrated at start. Several servers
    /// may share it.
    #[arg(long, env = "BUILDD_DATABASE_URL")]
    database_url: Option<String>,
    /// The most connections to Postgres this process holds.
    #[arg(long, env = "BUILDD_DB_POOL", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    db_pool: u32,
}

impl DatabaseArgs {
    /// The database, opened and migrated; SQLite's writes kept on `writes_cpu` if given.
    async fn open(&self, writes_cpu: Option<usize>) -> Db {
        match &self.database_url {
            Some(url) => Db::open_postgres(url, self.db_pool)
                .await
                .unwrap_or_else(|e| fail(format!("opening the Postgres database: {e}"))),
            None => Db::open_with_writes_on(&self.db, writes_cpu)
                .await
                .unwrap_or_else(|e| fail(format!("opening {}: {e}", self.db.display()))),
        }
    }

    /// The database in words (never a URL, which may hold a password).
    fn name(&self) -> String {
        match &self.database_url {
            Some(_) => "the Postgres database".to_string(),
            None => self.db.display().to_string(),
        }
    }
}

#[derive(Subcommand)]
enum KeyCommand {
    /// Create an API key and print it. It is stored only as a hash: this is the only
    /// time it is shown.
    Create {
        /// What the key may do: admin (everything), worker (claim and report work),
        /// trigger (read, and file tasks).
        #[arg(long, value_parser = ["admin", "worker", "trigger"])]
        level: String,
        /// The key's team; created when it does not exist.
        #[arg(long, default_value = "Default team")]
        team: String,
        /// A label for the key.
        #[arg(long, default_value = "cli")]
        name: String,
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

/// "90s", "10m", "1h", "1h30m": a positive duration.
/// What a duration may look like, for every refusal.
const DURATION_FORMS: &str = "a number and a unit, s, m or h (e.g. 30s, 10m, 1h, 1h30m)";

/// A span such as `1h`, `10m`, `30s` or `1h30m`; `0s` (or `0`) is zero.
fn duration(text: &str) -> Result<chrono::Duration, String> {
    let trimmed = text.trim();
    if trimmed == "0" {
        return Ok(chrono::Duration::zero());
    }
    let refused = || format!("\"{text}\" is not a duration: write {DURATION_FORMS}");
    let mut total = 0i64;
    let mut number = String::new();
    for c in trimmed.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: i64 = number.parse().map_err(|_| refused())?;
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return Err(refused()),
        };
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(refused)?;
        number.clear();
    }
    if !number.is_empty() || trimmed.is_empty() {
        return Err(refused());
    }
    Ok(chrono::Duration::seconds(total))
}

/// A duration longer than zero: how often, or how long to wait.
fn parse_duration(text: &str) -> Result<chrono::Duration, String> {
    let d = duration(text)?;
    if d <= chrono::Duration::zero() {
        return Err(format!(
            "\"{text}\" is no time at all: write {DURATION_FORMS}, more than 0"
        ));
    }
    Ok(d)
}

/// Where `--writes-cpu` puts the writes.
#[derive(Clone, Copy)]
enum WritesCpu {
    Auto,
    Unpinned,
    On(usize),
}

impl WritesCpu {
    fn resolve(self) -> Option<usize> {
        match self {
            Self::Auto => cpu::default_writes_cpu(),
            Self::Unpinned => None,
            Self::On(n) => match cpu::allowed_cpus() {
                Ok(allowed) if !allowed.contains(&n) => fail(format!(
                    "--writes-cpu {n}: this process may run on CPUs {allowed:?} only"
                )),
                _ => Some(n),
            },
        }
    }
}

fn parse_writes_cpu(text: &str) -> Result<WritesCpu, String> {
    match text {
        "auto" => Ok(WritesCpu::Auto),
        "none" => Ok(WritesCpu::Unpinned),
        n => n
            .parse()
            .map(WritesCpu::On)
            .map_err(|_| format!("\"{text}\" is not a CPU: write a CPU number, auto or none")),
    }
}

/// A duration that may be zero: `0s` means none.
fn parse_grace(text: &str) -> Result<chrono::Duration, String> {
    duration(text)
}

fn pace(seconds: f64) -> std::time::Duration {
    if !(seconds.is_finite() && seconds >= 0.0) {
        fail(format!(
            "the pace must be a number of seconds, not {seconds}"
        ));
    }
    std::time::Duration::from_secs_f64(seconds)
}

/// Serves until `stop` (SIGINT or SIGTERM), then lets the requests in flight finish.
async fn serve_until_signal(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    limits: Limits,
    stop: impl std::future::Future<Output = ()>,
) {
    serving::serve(listener, router, limits, stop).await;
    eprintln!("Stopped.");
}

/// SIGINT or SIGTERM. The handlers are installed when this is called, not when it is first
/// awaited, so a signal right after start is not missed.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            match (interrupt, terminate) {
                (Ok(mut interrupt), Ok(mut terminate)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = terminate.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

/// Log lines to stderr at the levels RUST_LOG sets, as text or one JSON object a line (the
/// request's span, with its id, route and path, in each). Text is coloured only on a
/// terminal: a file or a collector gets no escape codes.
fn init_logging(format: LogFormat) {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn".into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
}

/// Serves `/metrics` alone on `addr` (with the CPU time of `db`'s writes), until the process
/// ends.
async fn serve_metrics(addr: SocketAddr, db: Option<Db>) {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .unwrap_or_else(|e| fail(format!("listening on {addr} for metrics: {e}")));
    println!(
        "Metrics on http://{}/metrics",
        listener.local_addr().expect("bound address")
    );
    let limits = Limits {
        max_connections: 16,
        ..Limits::for_this_process(1)
    };
    tokio::spawn(serving::serve(
        listener,
        metrics_router(db),
        limits,
        std::future::pending(),
    ));
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    init_logging(cli.log_format);
    match cli.command {
        Command::Serve {
            listen,
            db,
            dist,
            demo: with_demo,
            worker,
            worker_pace,
            checkin_interval,
            checkin_grace,
            upstream,
            upstream_ca,
            upstream_timeout,
            metrics_listen,
            writes_cpu,
        } => {
            let stop = shutdown_signal();
            if let Some(dist) = &dist {
                if !dist.join("index.html").exists() {
                    fail(format!("{} has no index.html", dist.display()));
                }
            }
            if let Some(url) = upstream {
                let options = UpstreamOptions {
                    ca_file: upstream_ca,
                    answer_timeout: upstream_timeout.to_std().expect("a positive duration"),
                    ..UpstreamOptions::new(url)
                };
                let upstream = Upstream::new(&options).unwrap_or_else(|e| fail(e));
                let listener = tokio::net::TcpListener::bind(listen)
                    .await
                    .unwrap_or_else(|e| fail(format!("listening on {listen}: {e}")));
                let addr = listener.local_addr().expect("bound address");
                println!("Forwarding the API to the Buildd at {}.", upstream.name());
                println!("Open the dashboard and connect with an API key of that Buildd:");
                println!("    http://{addr}/connect");
                if let Some(addr) = metrics_listen {
                    serve_metrics(addr, None).await;
                }
                let router = buildd_server::upstream::app(upstream, dist.as_deref());
                // Each connection may hold one to the upstream as well.
                serve_until_signal(listener, router, Limits::for_this_process(2), stop).await;
                return;
            }
            let database = db.open(writes_cpu.resolve()).await;
            if let (Some(cpu), Some([writes, sqlite])) =
                (database.writes_cpu(), database.write_threads())
            {
                tracing::info!("writes run on CPU {cpu} (threads {writes} and {sqlite})");
            }
            let listener = tokio::net::TcpListener::bind(listen)
                .await
                .unwrap_or_else(|e| fail(format!("listening on {listen}: {e}")));
            let addr = listener.local_addr().expect("bound address");
            if with_demo {
                let seeded = demo::seed_if_empty(&database)
                    .await
                    .unwrap_or_else(|e| fail(format!("seeding demo data: {e}")));
                let key = demo::dashboard_key(&database)
                    .await
                    .unwrap_or_else(|e| fail(format!("creating a demo key: {e}")));
                if seeded {
                    println!("Seeded demo data into {}.", db.name());
                }
                println!("Open the dashboard, already connected to the demo team:");
                println!("    http://{addr}/#key={key}");
            } else {
                println!("Buildd API server listening on http://{addr}");
            }
            if let Some(addr) = metrics_listen {
                serve_metrics(addr, Some(database.clone())).await;
            }
            if worker {
                let key = fresh_key(&database, demo::DEMO_TEAM)
                    .await
                    .unwrap_or_else(|e| fail(format!("creating the worker's key: {e}")));
                let client = WorkerClient::new(&format!("http://{addr}"), &key);
                let pace = pace(worker_pace);
                println!("The scripted worker is working the demo team's tasks.");
                tokio::spawn(ScriptedWorker::new(client, pace).run());
            }
            let checkins = CheckinConfig {
                interval: checkin_interval,
                grace: checkin_grace,
            };
            tokio::spawn(scheduler::run(database.clone(), checkins));
            let changes = ChangeFeed::new(database.clone());
            let options = AppOptions {
                checkins,
                changes: Some(changes.clone()),
                metrics_for_admins: metrics_listen.is_none(),
                ..AppOptions::default()
            };
            let router = app_with_options(database.clone(), dist.as_deref(), options);
            // Open change streams end as the server stops, so the drain waits only on requests.
            let stop = async move {
                stop.await;
                changes.close();
            };
            serve_until_signal(listener, router, Limits::for_this_process(1), stop).await;
            database.close().await;
        }
        Command::Backup { db, to } => {
            if db.database_url.is_some() {
                fail(
                    "backup copies a SQLite file; back up a Postgres database with Postgres's \
                     own tools (pg_dump or pg_basebackup, or the provider's backups)"
                        .to_string(),
                );
            }
            match buildd_server::db::backup(&db.db, &to).await {
                Ok(bytes) => println!(
                    "Backed up {} to {} ({bytes} bytes); the copy passes its integrity check.",
                    db.db.display(),
                    to.display()
                ),
                Err(e) => fail(e),
            }
        }
        Command::Worker { url, key, pace: p } => {
            let client = WorkerClient::new(&url, &key);
            println!("The scripted worker is claiming tasks from {url}.");
            ScriptedWorker::new(client, pace(p)).run().await;
        }
        Command::ClassifyMigrations { files } => {
            let mut contract = false;
            for file in files {
                let sql = std::fs::read_to_string(&file)
                    .unwrap_or_else(|e| fail(format!("reading {}: {e}", file.display())));
                println!("{}", file.display());
                for v in classify_sql(&sql) {
                    contract |= v.verdict == Verdict::Contract;
                    let verdict = match v.verdict {
                        Verdict::Expand => "EXPAND",
                        Verdict::Contract => "CONTRACT",
                    };
                    println!("  {verdict:<9} {}", v.reason);
                    if !v.statement.is_empty() {
                        println!("            {}", v.statement);
                    }
                }
            }
            if contract {
                std::process::exit(1);
            }
        }
        Command::Key {
            command:
                KeyCommand::Create {
                    level,
                    team,
                    name,
                    db,
                },
        } => {
            let database = db.open(None).await;
            let key = async {
                let mut tx = database.write().await?;
                let team_id = keys::ensure_team(&mut tx, &team).await?;
                let key = keys::create_key(&mut tx, &team_id, &AccountLevel::parse(&level), &name)
                    .await?;
                tx.commit().await?;
                Ok::<_, sqlx::Error>(key)
            }
            .await
            .unwrap_or_else(|e| fail(format!("creating the key: {e}")));
            println!("{key}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(parse_duration("1h30m"), Ok(chrono::Duration::minutes(90)));
        assert_eq!(parse_duration(" 45s "), Ok(chrono::Duration::seconds(45)));
        assert_eq!(parse_grace("0s"), Ok(chrono::Duration::zero()));
        assert_eq!(parse_grace("0"), Ok(chrono::Duration::zero()));
        let refused = parse_duration("0s").unwrap_err();
        assert!(refused.contains("more than 0"), "{refused}");
        for bad in ["soon", "10", "5d", "", "h"] {
            let why = parse_grace(bad).unwrap_err();
            assert!(why.contains("s, m or h"), "{bad}: {why}");
        }
        assert!(parse_grace("99999999999999999h").is_err());
    }
}
