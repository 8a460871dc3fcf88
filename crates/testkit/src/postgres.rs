//! A Postgres cluster for one test binary: made with `initdb` in a temporary directory the
//! first time a test asks for a database, listening only on a socket in that directory,
//! with durability off (a test's database dies with the binary). The server's migrations
//! are applied once to a template database; each test gets a copy of it of its own.
//!
//! The binaries are Debian's `postgresql` package (`/usr/lib/postgresql/N/bin`, the newest
//! first), or the directory in `BUILDD_PG_BIN`. Postgres refuses to run as root: as root,
//! the cluster runs as the `postgres` user, or `nobody` where there is none. A watcher
//! process stops the cluster and removes its directory once the test binary exits.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The oldest Postgres the server supports.
const OLDEST: u32 = 15;

/// What a test connects to: a database of its own in the binary's cluster.
pub struct PgDatabase {
    pub url: String,
    pub name: String,
}

struct Cluster {
    socket_dir: PathBuf,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
static TEMPLATE: tokio::sync::OnceCell<()> = tokio::sync::OnceCell::const_new();
static CREATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
static NEXT: AtomicU32 = AtomicU32::new(0);

const TEMPLATE_NAME: &str = "buildd_template";

/// A fresh database with the server's Postgres migrations applied, in this binary's
/// cluster (started on first use).
pub async fn fresh_database() -> PgDatabase {
    let cluster = cluster();
    TEMPLATE
        .get_or_init(|| async {
            admin(cluster, &format!("CREATE DATABASE {TEMPLATE_NAME}")).await;
            let pool = buildd_server::db::postgres::open(&cluster.url(TEMPLATE_NAME), 2)
                .await
                .expect("the server's Postgres migrations apply to an empty database");
            pool.close().await;
        })
        .await;
    let name = format!("buildd_test_{}", NEXT.fetch_add(1, Ordering::Relaxed));
    {
        // A template being copied may not be copied again at the same moment.
        let _one = CREATING.lock().await;
        admin(
            cluster,
            &format!("CREATE DATABASE {name} TEMPLATE {TEMPLATE_NAME}"),
        )
        .await;
    }
    PgDatabase {
        url: cluster.url(&name),
        name,
    }
}

impl Cluster {
    fn url(&self, database: &str) -> String {
        format!(
            "postgres://postgres@localhost/{database}?host={}",
            self.socket_dir.display()
        )
    }
}

/// Runs `sql` on the cluster's `postgres` database.
async fn admin(cluster: &Cluster, sql: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&cluster.url("postgres"))
        .await
        .expect("the test cluster answers");
    sqlx::raw_sql(sql)
        .execute(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    let _ = conn.close().await;
}

fn cluster() -> &'static Cluster {
    let started = CLUSTER.get_or_init(start);
    match started {
        Ok(cluster) => cluster,
        Err(why) => panic!("no Postgres for the tests: {why}"),
    }
}

/// The directory of Postgres's binaries.
fn binaries() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("BUILDD_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| {
            "no /usr/lib/postgresql: install Debian's `postgresql` package \
             (`cargo xtask test` does), or set BUILDD_PG_BIN"
                .to_string()
        })?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(version, bin)| *version >= OLDEST && bin.join("postgres").exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| format!("no Postgres {OLDEST} or newer under /usr/lib/postgresql"))
}

/// Whom the cluster runs as: nobody else when not root.
fn run_as() -> Option<&'static str> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    let has_postgres = Command::new("id")
        .arg("postgres")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    Some(if has_postgres { "postgres" } else { "nobody" })
}

/// `program` of the binaries, run as `user` when given.
fn command(bin: &Path, program: &str, user: Option<&str>) -> Command {
    match user {
        Some(user) => {
            let mut command = Command::new("setpriv");
            command
                .arg(format!("--reuid={user}"))
                .arg(format!("--regid={user}"))
                .arg("--clear-groups")
                .arg("--")
                .arg(bin.join(program));
            command
        }
        None => Command::new(bin.join(program)),
    }
}

fn run(mut command: Command, what: &str) -> Result<(), String> {
    let out = command
        .output()
        .map_err(|e| format!("{what}: cannot run: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn start() -> Result<Cluster, String> {
    let bin = binaries()?;
    let user = run_as();
    remove_abandoned_clusters();
    let dir = tempfile::Builder::new()
        .prefix("buildd-pg-")
        .tempdir()
        .map_err(|e| format!("a temporary directory: {e}"))?
        .keep();
    std::fs::write(dir.join("owner"), std::process::id().to_string())
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    if let Some(user) = user {
        run(
            {
                let mut c = Command::new("chown");
                c.arg(format!("{user}:")).arg(&dir);
                c
            },
            "chown",
        )?;
    }
    let data = dir.join("data");
    let mut initdb = command(&bin, "initdb", user);
    initdb
        .arg("--pgdata")
        .arg(&data)
        .args(["--username=postgres", "--auth=trust", "--encoding=UTF8"])
        .args(["--locale=C", "--no-sync", "--no-instructions"]);
    run(initdb, "initdb")?;
    let options = format!(
        "-c listen_addresses='' -k {} -c fsync=off -c synchronous_commit=off \
         -c full_page_writes=off -c max_connections=300",
        dir.display()
    );
    let mut pg_ctl = command(&bin, "pg_ctl", user);
    pg_ctl
        .arg("start")
        .arg("--wait")
        .arg("--pgdata")
        .arg(&data)
        .arg("--log")
        .arg(dir.join("log"))
        .arg("-o")
        .arg(options)
        .stdin(Stdio::null());
    run(pg_ctl, "pg_ctl start")?;
    watch(&bin, user, &dir)?;
    Ok(Cluster { socket_dir: dir })
}

/// Starts the watcher: once this process is gone, it stops the cluster at once and
/// removes its directory.
fn watch(bin: &Path, user: Option<&str>, dir: &Path) -> Result<(), String> {
    let stop = command(bin, "pg_ctl", user);
    let mut stop_line = vec![stop.get_program().to_string_lossy().into_owned()];
    stop_line.extend(stop.get_args().map(|a| a.to_string_lossy().into_owned()));
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
         {stop} stop --mode=immediate --pgdata '{data}' >/dev/null 2>&1; rm -rf '{dir}'",
        pid = std::process::id(),
        stop = stop_line.join(" "),
        data = dir.join("data").display(),
        dir = dir.display(),
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| format!("the cluster's watcher: {e}"))
}

/// Removes the clusters of test binaries that died without their watcher (killed with
/// it): a directory whose owner process is gone.
fn remove_abandoned_clusters() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let is_cluster = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with("buildd-pg-"));
        let Ok(owner) = std::fs::read_to_string(path.join("owner")) else {
            continue;
        };
        if is_cluster && !Path::new("/proc").join(owner.trim()).exists() {
            let postmaster = path.join("data/postmaster.pid");
            if let Some(pid) = std::fs::read_to_string(postmaster)
                .ok()
                .and_then(|s| s.lines().next()?.trim().parse::<i32>().ok())
            {
                // SAFETY: kill has no memory preconditions; a pid gone is an error ignored.
                unsafe { libc::kill(pid, libc::SIGQUIT) };
            }
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

/// Which database the HTTP-level tests run on: `BUILDD_TEST_DB=postgres` for a fresh
/// database of this binary's Postgres cluster, else (`sqlite`, or unset) SQLite in
/// `sqlite_file`.
pub async fn test_db(sqlite_file: &Path) -> buildd_server::Db {
    match std::env::var("BUILDD_TEST_DB").as_deref() {
        Ok("postgres") => {
            let database = fresh_database().await;
            buildd_server::Db::open_postgres(&database.url, 8)
                .await
                .expect("the test database on Postgres")
        }
        Ok("sqlite") | Err(_) => buildd_server::Db::open(sqlite_file)
            .await
            .expect("the test database on SQLite"),
        Ok(other) => panic!("BUILDD_TEST_DB={other}: sqlite or postgres"),
    }
}
