//! The SQLite database: one writer connection (so writes queue instead of failing with
//! SQLITE_BUSY) shared by group commit (see [`writer`]), and a pool of readers, in WAL mode,
//! migrated at open.
//!
//! A write's way, from handler to disk: the handler calls [`Db::transact`] with its lane
//! and its work (`work!(|tx| { … })`). If the writes queued ahead would take longer than the
//! lane's bound to drain, it is refused at once ([`WriteError::Busy`], a 503 with
//! Retry-After); a person's writes have a longer bound than workers'. Otherwise the work is
//! sent to the write thread, which waits for the writer connection ([`Writer::begin`],
//! recorded as `buildd_db_write_wait_seconds`, the first sign that writes queue), opens a
//! savepoint in the group's transaction and runs the work's statements. On success the
//! savepoint is released into the group and the connection passes to the next write; the
//! group commits (one fsync for all its members) when nobody else waits or it is full, and
//! only then does the handler get its answer. On failure the savepoint is rolled back and
//! the rest of the group is untouched. The checkpointer later copies committed pages from
//! the log into the database file.
//!
//! What makes that fast without changing it (the write thread, CPU pinning, the
//! checkpointer) lives apart in [`tuning`].

mod functions;
mod leader;
mod measures;
mod migrations;
pub mod postgres;
pub mod sql;
mod tuning;
mod writer;

pub use leader::Leader;
use measures::record_wait;
use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection, SqliteConnection, SqlitePool};
use std::collections::BTreeSet;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::Duration;
pub use tuning::cpu;
use tuning::{write_thread_id, Checkpointer, WriteThread, BACKSTOP_PAGES};
use writer::{Durable, Member, Writer};

/// The migrations this binary carries.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// How long `/readyz` waits for a reader before saying the database does not answer.
const READY_WITHIN: Duration = Duration::from_secs(2);

/// Statements each connection keeps prepared (the server has a few hundred).
const STATEMENTS_KEPT: usize = 512;

/// A transaction: on SQLite a read (one snapshot, from the read pool) or a write (a member
/// of the writer's group, in its own savepoint); on Postgres one of the pool's. Statements
/// run on it through [`sql`]; a write not committed is rolled back when dropped.
pub struct Tx(Inner);

enum Inner {
    Read(sqlx::Transaction<'static, sqlx::Sqlite>),
    Write(Member),
    /// A write holds its connection ([`postgres::Hold`]) until it ends; a read has none.
    Postgres(
        sqlx::Transaction<'static, sqlx::Postgres>,
        Option<postgres::Hold>,
    ),
}

/// The connection a transaction runs on.
pub(crate) enum Conn<'c> {
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut sqlx::PgConnection),
}

impl Tx {
    /// Releases a write into its group (see [`Member::release`]).
    async fn release(self) -> Result<Durable, sqlx::Error> {
        match self.0 {
            Inner::Write(member) => member.release().await,
            Inner::Read(_) | Inner::Postgres(..) => {
                unreachable!("only a SQLite write is released into a group")
            }
        }
    }

    /// Ends the transaction: a write returns once it is durable (its group committed).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Inner::Read(tx) => tx.commit().await,
            Inner::Write(member) => member.commit().await,
            Inner::Postgres(tx, hold) => {
                let committed = tx.commit().await;
                // A write's hold ends with its commit.
                drop(hold);
                committed
            }
        }
    }

    /// Whether this is a Postgres transaction.
    pub fn is_postgres(&self) -> bool {
        matches!(self.0, Inner::Postgres(..))
    }

    pub(crate) fn conn(&mut self) -> Conn<'_> {
        match &mut self.0 {
            Inner::Read(tx) => Conn::Sqlite(tx),
            Inner::Write(member) => Conn::Sqlite(member.conn_mut()),
            Inner::Postgres(tx, _) => Conn::Postgres(tx),
        }
    }

    /// The SQLite connection, for what only SQLite has (its pragmas, query plans).
    ///
    /// # Panics
    /// On a Postgres transaction.
    pub fn sqlite(&mut self) -> &mut SqliteConnection {
        match self.conn() {
            Conn::Sqlite(conn) => conn,
            Conn::Postgres(_) => panic!("a SQLite connection was asked of a Postgres transaction"),
        }
    }
}

/// Whose write it is: what the queue may hold before it is refused differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A person's click (an admin key): refused only once the queue is long indeed.
    Person,
    /// A runner's claims and reports: refused first, so a person's write still gets in.
    Worker,
}

impl Lane {
    /// The longest a write of this lane is let wait for the writer, by the estimate.
    pub fn bound(self) -> Duration {
        match self {
            Lane::Person => Duration::from_secs(4),
            Lane::Worker => Duration::from_secs(1),
        }
    }
}

impl Lane {
    fn name(self) -> &'static str {
        match self {
            Lane::Person => "person",
            Lane::Worker => "worker",
        }
    }
}

/// Refuses a write of `lane` ([`WriteError::Busy`]) when the writes queued ahead would
/// take longer than the lane's bound to drain: `backlog`.
fn admits(backlog: Duration, lane: Lane) -> Result<(), WriteError> {
    if backlog > lane.bound() {
        metrics::counter!("buildd_db_writes_refused_total", "lane" => lane.name()).increment(1);
        return Err(WriteError::Busy(backlog));
    }
    Ok(())
}

/// Why a write did not start.
#[derive(Debug)]
pub enum WriteError {
    /// The writes queued ahead would take about this long: try again after it.
    Busy(Duration),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for WriteError {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(e)
    }
}

/// The work of a request's write: what [`Db::transact`] runs with its transaction.
pub type WriteWork<'t, T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + Send + 't>>;

/// A request's write for [`Db::transact`]: `work!(|tx| { … })` stands for
/// `move |tx| Box::pin(async move { … })`, the boxed future that lets the body borrow the
/// transaction while it runs (a closure cannot yet say that its future does).
macro_rules! work {
    (|$tx:ident| $body:block) => {
        move |$tx| Box::pin(async move $body)
    };
}
pub(crate) use work;

/// The server's database: SQLite in one file (the default), or Postgres shared by several
/// replicas of the server.
#[derive(Clone)]
pub struct Db(Backend);

#[derive(Clone)]
enum Backend {
    Sqlite(SqliteDb),
    Postgres(postgres::PgDb),
}

impl Db {
    /// Opens (creating if needed) the SQLite database at `path` and applies pending
    /// migrations. The path is a file name as it is: spaces, `#`, `?` and `%` are part of it.
    pub async fn open(path: &Path) -> Result<Self, sqlx::Error> {
        Self::open_with_writes_on(path, None).await
    }

    /// As [`Db::open`], with the writes kept on `cpu` when one is given (see [`cpu`]): what a
    /// server under load does.
    pub async fn open_with_writes_on(path: &Path, cpu: Option<usize>) -> Result<Self, sqlx::Error> {
        Ok(Self(Backend::Sqlite(
            SqliteDb::open_with_writes_on(path, cpu).await?,
        )))
    }

    /// Opens the Postgres database at `url` with a pool of at most `connections`, applying
    /// pending migrations (see [`postgres`]).
    pub async fn open_postgres(url: &str, connections: u32) -> Result<Self, sqlx::Error> {
        Ok(Self(Backend::Postgres(
            postgres::PgDb::open(url, connections).await?,
        )))
    }

    /// Another pool on the same Postgres database, as another replica of the server holds;
    /// `None` on SQLite, which one process serves.
    pub async fn replica(&self) -> Option<Result<Self, sqlx::Error>> {
        let Backend::Postgres(db) = &self.0 else {
            return None;
        };
        Some(db.replica().await.map(|db| Self(Backend::Postgres(db))))
    }

    /// Who runs the scheduler's chores: this server, on SQLite; on Postgres, whichever
    /// server holds the chores' lock (see [`Leader`]).
    pub fn chore_leader(&self) -> Leader {
        match &self.0 {
            Backend::Sqlite(_) => Leader::sqlite(),
            Backend::Postgres(db) => Leader::postgres((*db.pool.connect_options()).clone()),
        }
    }

    /// Whether this is Postgres.
    pub fn is_postgres(&self) -> bool {
        matches!(self.0, Backend::Postgres(_))
    }

    /// Commits the writes in flight, then closes every connection.
    pub async fn close(&self) {
        match &self.0 {
            Backend::Sqlite(db) => db.close().await,
            Backend::Postgres(db) => db.pool.close().await,
        }
    }

    /// The CPU time the writes have used so far, on both of their threads (see [`cpu`]);
    /// `None` where the system does not say, and on Postgres (the writes run there).
    pub fn write_cpu_time(&self) -> Option<Duration> {
        match &self.0 {
            Backend::Sqlite(db) => db.write_cpu_time(),
            Backend::Postgres(_) => None,
        }
    }

    /// The CPU SQLite's writes are kept on, if any.
    pub fn writes_cpu(&self) -> Option<usize> {
        match &self.0 {
            Backend::Sqlite(db) => db.writes_cpu(),
            Backend::Postgres(_) => None,
        }
    }

    /// The ids of the threads that run SQLite's writes: the write thread, then the writer
    /// connection's SQLite thread. None on Postgres.
    pub fn write_threads(&self) -> Option<[i64; 2]> {
        match &self.0 {
            Backend::Sqlite(db) => Some(db.write_threads()),
            Backend::Postgres(_) => None,
        }
    }

    /// A read transaction: every query in it sees one snapshot.
    pub async fn read(&self) -> Result<Tx, sqlx::Error> {
        match &self.0 {
            Backend::Sqlite(db) => db.read().await,
            Backend::Postgres(db) => {
                // One snapshot for the whole read, begun in the same round trip.
                let tx = db
                    .pool
                    .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .await?;
                Ok(Tx(Inner::Postgres(tx, None)))
            }
        }
    }

    /// A write transaction for the server's own work (chores, seeding, tools): it waits its
    /// turn however long the queue.
    pub async fn write(&self) -> Result<Tx, sqlx::Error> {
        match &self.0 {
            Backend::Sqlite(db) => db.write().await,
            Backend::Postgres(db) => {
                let (tx, hold) = db.begin_write().await?;
                Ok(Tx(Inner::Postgres(tx, Some(hold))))
            }
        }
    }

    /// Runs `work`, a request's write in `lane`, in a transaction, and returns once it is
    /// committed and durable. An `Err` from `work` rolls back everything it did. Refused at
    /// once ([`WriteError::Busy`]) when the writes queued ahead would take longer than the
    /// lane's bound. A request given up before its write is committed leaves nothing of it.
    pub async fn transact<T, E, F>(&self, lane: Lane, work: F) -> Result<T, E>
    where
        F: for<'t> FnOnce(&'t mut Tx) -> WriteWork<'t, T, E> + Send + 'static,
        T: Send + 'static,
        E: From<WriteError> + Send + 'static,
    {
        match &self.0 {
            Backend::Sqlite(db) => db.transact(lane, work).await,
            Backend::Postgres(db) => {
                admits(db.write_backlog(), lane)?;
                let (tx, hold) = db.begin_write().await.map_err(WriteError::Db)?;
                let mut tx = Tx(Inner::Postgres(tx, Some(hold)));
                let value = work(&mut tx).await?;
                let started = std::time::Instant::now();
                tx.commit().await.map_err(WriteError::Db)?;
                metrics::histogram!("buildd_db_commit_seconds").record(started.elapsed());
                // Each write commits on its own on Postgres.
                metrics::counter!("buildd_db_commits_total").increment(1);
                metrics::counter!("buildd_db_committed_writes_total").increment(1);
                Ok(value)
            }
        }
    }

    /// Whether a write of `lane` would be let queue now: refused ([`WriteError::Busy`])
    /// when the writes queued ahead would take longer than the lane's bound. What
    /// [`Db::transact`] asks first; a request that would read before it writes asks it too,
    /// so a refusal costs no read.
    pub fn admits(&self, lane: Lane) -> Result<(), WriteError> {
        match &self.0 {
            Backend::Sqlite(db) => db.admits(lane),
            Backend::Postgres(db) => admits(db.write_backlog(), lane),
        }
    }

    /// How long the writes now waiting would take to be committed, by the moving averages:
    /// what [`Db::transact`] compares with a lane's bound.
    pub fn write_backlog(&self) -> Duration {
        match &self.0 {
            Backend::Sqlite(db) => db.write_backlog(),
            Backend::Postgres(db) => db.write_backlog(),
        }
    }

    /// Writes waiting for SQLite's writer (or for a connection, on Postgres) now, and group
    /// commits so far (none on Postgres): what a test or the bench reads to see writes queue
    /// and share commits.
    pub fn write_queue(&self) -> (usize, u64) {
        match &self.0 {
            Backend::Sqlite(db) => db.write_queue(),
            Backend::Postgres(db) => (db.writes_waiting(), 0),
        }
    }

    /// How many times keys may have changed through another server (Postgres's notices;
    /// always 0 on SQLite, where this process makes every change): whoever keeps keys'
    /// accounts starts over when it moves.
    pub fn key_notices(&self) -> u64 {
        match &self.0 {
            Backend::Sqlite(_) => 0,
            Backend::Postgres(db) => db.key_notices(),
        }
    }

    /// The pool's connections on Postgres, open and of those idle: for `/metrics`.
    pub fn pool_connections(&self) -> Option<(u32, usize)> {
        match &self.0 {
            Backend::Sqlite(_) => None,
            Backend::Postgres(db) => Some(db.connections()),
        }
    }

    /// Whether the database answers a query and holds exactly the migrations this binary
    /// carries; what is not ready, in words, when not.
    pub async fn ready(&self) -> Result<(), String> {
        match &self.0 {
            Backend::Sqlite(db) => db.ready().await,
            Backend::Postgres(db) => postgres::ready(&db.pool).await,
        }
    }
}

#[derive(Clone)]
struct SqliteDb {
    read: SqlitePool,
    writer: Writer,
    checkpoints: Checkpointer,
    thread: WriteThread,
    /// The write thread and the writer connection's SQLite thread.
    write_threads: [i64; 2],
    /// The CPU both are kept on, if any.
    writes_cpu: Option<usize>,
}

impl SqliteDb {
    /// Commits the writes in flight, then closes every connection; the checkpointer's
    /// closes last, copying the whole WAL into the database file and removing it.
    pub async fn close(&self) {
        self.writer.close().await;
        self.read.close().await;
        self.checkpoints.close().await;
    }

    async fn open_with_writes_on(path: &Path, cpu: Option<usize>) -> Result<Self, sqlx::Error> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // An acknowledged write survives a power loss: the WAL is synced at each commit
            // (NORMAL could lose the last commits; `cargo xtask bench` shows the cost).
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            // A statement's temporary tables and journals stay in memory: as files, every
            // claim and completion created and deleted one in the temp directory.
            .pragma("temp_store", "memory")
            // Committed pages are copied into the database file beside the writer; its own
            // commits do so only past this (see [`checkpointer`]).
            .pragma("wal_autocheckpoint", BACKSTOP_PAGES.to_string())
            .statement_cache_capacity(STATEMENTS_KEPT)
            .busy_timeout(Duration::from_secs(10));
        let mut conn = options.connect().await?;
        functions::register(&mut conn).await?;
        MIGRATOR.run(&mut conn).await?;
        let sqlite_thread = tuning::writer_thread(&mut conn, cpu).await?;
        let writer = Writer::new(conn);
        let commits = writer.clone();
        let checkpoints = Checkpointer::start(&options, move || commits.commits()).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(8)
            // A reader is pinged as it goes back to the pool; pinging it again as it is
            // taken would be one more trip to its thread per read.
            .test_before_acquire(false)
            .after_connect(|conn, _| Box::pin(functions::register(conn)))
            .connect_with(options.read_only(true))
            .await?;
        let thread = WriteThread::start()?;
        let write_threads = [write_thread_id(&thread, cpu).await?, sqlite_thread];
        Ok(Self {
            read,
            writer,
            checkpoints,
            thread,
            write_threads,
            writes_cpu: cpu,
        })
    }

    /// The CPU time the writes have used so far, on both of their threads (see [`cpu`]);
    /// `None` where the system does not say.
    pub fn write_cpu_time(&self) -> Option<Duration> {
        self.write_threads
            .iter()
            .map(|&tid| cpu::thread_cpu(tid).ok())
            .sum()
    }

    /// The CPU the writes are kept on, if any.
    pub fn writes_cpu(&self) -> Option<usize> {
        self.writes_cpu
    }

    /// The ids of the threads that run writes: the write thread, then the writer
    /// connection's SQLite thread.
    pub fn write_threads(&self) -> [i64; 2] {
        self.write_threads
    }

    /// A read transaction: every query in it sees one snapshot.
    pub async fn read(&self) -> Result<Tx, sqlx::Error> {
        Ok(Tx(Inner::Read(self.read.begin().await?)))
    }

    /// A write transaction for the server's own work (chores, seeding, tools): it waits its
    /// turn however long the queue.
    pub async fn write(&self) -> Result<Tx, sqlx::Error> {
        let member = self.writer.begin(self.writer.queued(), record_wait).await?;
        Ok(Tx(Inner::Write(member)))
    }

    /// Runs `work`, a request's write in `lane`, in a transaction on the write thread
    /// (see [`tuning`]), and returns once it is committed and durable. An `Err` from
    /// `work` rolls back everything it did. Refused at once ([`WriteError::Busy`]) when the
    /// writes queued ahead would take longer than the lane's bound. A request given up
    /// before its write is committed leaves nothing of it.
    pub async fn transact<T, E, F>(&self, lane: Lane, work: F) -> Result<T, E>
    where
        F: for<'t> FnOnce(&'t mut Tx) -> WriteWork<'t, T, E> + Send + 'static,
        T: Send + 'static,
        E: From<WriteError> + Send + 'static,
    {
        self.admits(lane)?;
        let queued = self.writer.queued();
        let writer = self.writer.clone();
        let (answer, answered) = tokio::sync::oneshot::channel::<Result<(T, Durable), E>>();
        let job = Box::pin(async move {
            if answer.is_closed() {
                return;
            }
            let member = writer.begin(queued, record_wait).await;
            let mut tx = match member {
                Ok(member) => Tx(Inner::Write(member)),
                Err(e) => {
                    let _ = answer.send(Err(WriteError::Db(e).into()));
                    return;
                }
            };
            let done = match work(&mut tx).await {
                // Given up while it ran: dropped, so rolled back.
                Ok(_) if answer.is_closed() => return,
                Ok(value) => match tx.release().await {
                    Ok(durable) => Ok((value, durable)),
                    Err(e) => Err(WriteError::Db(e).into()),
                },
                Err(e) => Err(e),
            };
            let _ = answer.send(done);
        });
        // What the write logs is logged in its request's span.
        let job = Box::pin(tracing::Instrument::instrument(
            job,
            tracing::Span::current(),
        ));
        if !self.thread.send(job) {
            return Err(WriteError::Db(sqlx::Error::PoolClosed).into());
        }
        let (value, durable) = answered.await.map_err(|_| {
            WriteError::Db(sqlx::Error::Protocol("the write did not finish".into()))
        })??;
        durable.wait().await.map_err(WriteError::Db)?;
        Ok(value)
    }

    /// Whether a write of `lane` would be let queue now: refused ([`WriteError::Busy`])
    /// when the writes queued ahead would take longer than the lane's bound. What
    /// [`Db::transact`] asks first; a request that would read before it writes asks it too,
    /// so a refusal costs no read.
    pub fn admits(&self, lane: Lane) -> Result<(), WriteError> {
        admits(self.write_backlog(), lane)
    }

    /// How long the writes now waiting would take to be committed, by the moving averages:
    /// what [`Db::transact`] compares with a lane's bound.
    pub fn write_backlog(&self) -> Duration {
        self.writer.backlog()
    }

    /// Writes waiting for the writer now, and group commits so far: what a test or the
    /// bench reads to see writes queue and share commits.
    pub fn write_queue(&self) -> (usize, u64) {
        (self.writer.waiting(), self.writer.commits())
    }

    /// Whether the database answers a query and holds exactly the migrations this binary
    /// carries; what is not ready, in words, when not.
    pub async fn ready(&self) -> Result<(), String> {
        let query =
            sqlx::query_as::<_, (i64,)>("SELECT version FROM _sqlx_migrations WHERE success = 1")
                .fetch_all(&self.read);
        let applied: BTreeSet<i64> = match tokio::time::timeout(READY_WITHIN, query).await {
            Ok(Ok(rows)) => rows.into_iter().map(|(v,)| v).collect(),
            Ok(Err(e)) => {
                tracing::warn!("readiness: the database does not answer: {e}");
                return Err("the database does not answer a query".into());
            }
            Err(_) => {
                return Err(format!(
                    "the database did not answer within {} s",
                    READY_WITHIN.as_secs()
                ))
            }
        };
        let carried: BTreeSet<i64> = MIGRATOR
            .iter()
            .filter(|m| !m.migration_type.is_down_migration())
            .map(|m| m.version)
            .collect();
        migrations::matching(&carried, &applied)
    }
}

/// Copies the database at `from` into a new file `to` with `VACUUM INTO`: one consistent
/// snapshot holding every write committed before it began, taken beside a running server
/// (a reader, it does not stop the server's writer). The copy must then pass
/// `PRAGMA integrity_check`. Its size in bytes.
pub async fn backup(from: &Path, to: &Path) -> Result<u64, String> {
    if !from.is_file() {
        return Err(format!("{}: no database there", from.display()));
    }
    if to.exists() {
        return Err(format!(
            "{} exists: a backup never overwrites a file; name a new one",
            to.display()
        ));
    }
    let target = to
        .to_str()
        .ok_or_else(|| format!("{}: the backup's path must be UTF-8", to.display()))?;
    // Neither created nor migrated: the database is the running server's, as it is.
    let source = SqliteConnectOptions::new()
        .filename(from)
        .busy_timeout(Duration::from_secs(30));
    let mut connection = source
        .connect()
        .await
        .map_err(|e| format!("opening {}: {e}", from.display()))?;
    sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(&mut connection)
        .await
        .map_err(|e| format!("copying {} into {target}: {e}", from.display()))?;
    let _ = connection.close().await;
    let mut copy = SqliteConnectOptions::new()
        .filename(to)
        .connect()
        .await
        .map_err(|e| format!("opening the copy {target}: {e}"))?;
    let (verdict,): (String,) = sqlx::query_as("PRAGMA integrity_check")
        .fetch_one(&mut copy)
        .await
        .map_err(|e| format!("checking the copy {target}: {e}"))?;
    let _ = copy.close().await;
    if verdict != "ok" {
        return Err(format!(
            "the copy {target} fails its integrity check: {verdict}"
        ));
    }
    std::fs::metadata(to)
        .map(|m| m.len())
        .map_err(|e| format!("{target}: {e}"))
}

/// The query plan of `sql`, its `params` parameters all NULL, one line per step: what a
/// test holds a statement's index to.
#[cfg(test)]
pub async fn query_plan(tx: &mut Tx, sql: &str, params: usize) -> String {
    let explain = format!("EXPLAIN QUERY PLAN {sql}");
    let mut query = sqlx::query_as::<_, (i64, i64, i64, String)>(&explain);
    for _ in 0..params {
        query = query.bind(None::<&str>);
    }
    let steps = query.fetch_all(tx.sqlite()).await.expect("a plan");
    let steps: Vec<String> = steps.into_iter().map(|(_, _, _, step)| step).collect();
    steps.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn team_ids(db: &Db) -> Vec<String> {
        let rows: Vec<(String,)> = sqlx::query_as("SELECT id FROM teams ORDER BY id")
            .fetch_all(db.read().await.unwrap().sqlite())
            .await
            .unwrap();
        rows.into_iter().map(|(id,)| id).collect()
    }

    async fn insert_team(tx: &mut Tx, id: &str) {
        sqlx::query("INSERT INTO teams (id, name, created_at) VALUES (?1, ?1, 'now')")
            .bind(id)
            .execute(tx.sqlite())
            .await
            .unwrap();
    }

    /// Waits until `n` writes queue for the writer.
    async fn until_waiting(db: &Db, n: usize) {
        while db.write_queue().0 < n {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// Writes that queue while another holds the writer share its commit; one that fails
    /// after writing two rows leaves neither, and the others are all there.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn queued_writes_share_a_commit_and_a_failed_one_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let held = db.write().await.unwrap();
        let commits = db.write_queue().1;
        let writes: Vec<_> = (0..20)
            .map(|i| {
                let db = db.clone();
                tokio::spawn(async move {
                    let mut tx = db.write().await.unwrap();
                    insert_team(&mut tx, &format!("t{i:02}")).await;
                    if i == 7 {
                        insert_team(&mut tx, "t07-second").await;
                        // Refused after writing: the transaction is dropped, not committed.
                        return Err("refused");
                    }
                    tx.commit().await.map_err(|_| "commit failed")
                })
            })
            .collect();
        until_waiting(&db, 20).await;
        held.commit().await.unwrap();
        for (i, w) in writes.into_iter().enumerate() {
            let answer = w.await.unwrap();
            assert_eq!(answer.is_ok(), i != 7, "write {i}: {answer:?}");
        }
        let expected: Vec<String> = (0..20)
            .filter(|i| *i != 7)
            .map(|i| format!("t{i:02}"))
            .collect();
        assert_eq!(team_ids(&db).await, expected);
        let commits = db.write_queue().1 - commits;
        assert!(
            commits < 10,
            "21 writes queued together took {commits} commits"
        );
    }

    /// Reads `field` of /proc's status of thread `tid` of this process.
    #[cfg(target_os = "linux")]
    fn thread_status(tid: i64, field: &str) -> String {
        let status = std::fs::read_to_string(format!("/proc/self/task/{tid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .unwrap_or_else(|| panic!("no {field} for thread {tid}"))
            .trim()
            .to_string()
    }

    /// Writes kept on a CPU run on exactly that CPU, on both of their threads (the write
    /// thread and the writer's SQLite thread), and still commit; without a CPU nothing is
    /// pinned.
    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_kept_on_a_cpu_run_there_on_both_threads() {
        let dir = tempfile::tempdir().unwrap();
        let free = Db::open(&dir.path().join("free.db")).await.unwrap();
        assert!(free.writes_cpu().is_none());
        let cpu = *cpu::allowed_cpus().unwrap().last().unwrap();
        let db = Db::open_with_writes_on(&dir.path().join("d.db"), Some(cpu))
            .await
            .unwrap();
        assert_eq!(db.writes_cpu(), Some(cpu), "the writes are pinned");
        let [writes, sqlite] = db.write_threads().unwrap();
        assert_eq!(thread_status(writes, "Name"), "buildd-writes");
        assert_eq!(thread_status(sqlite, "Name"), "buildd-writer");
        for tid in [writes, sqlite] {
            assert_eq!(thread_status(tid, "Cpus_allowed_list"), cpu.to_string());
        }
        let done: Result<(), WriteError> = db
            .transact(Lane::Worker, |tx| {
                Box::pin(async move {
                    insert_team(tx, "pinned").await;
                    Ok(())
                })
            })
            .await;
        done.unwrap();
        assert_eq!(team_ids(&db).await, vec!["pinned".to_string()]);
        let beyond = cpu + 4096;
        let refused = Db::open_with_writes_on(&dir.path().join("e.db"), Some(beyond)).await;
        assert!(refused.is_err(), "a CPU that does not exist was taken");
    }

    /// The CPU time of the writes is that of their two threads, named whether or not they
    /// are kept on a CPU, and it grows with the work the writes do.
    #[cfg(target_os = "linux")]
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_writes_cpu_time_grows_with_their_work() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let [writes, sqlite] = db.write_threads().unwrap();
        assert_eq!(thread_status(writes, "Name"), "buildd-writes");
        assert_eq!(thread_status(sqlite, "Name"), "buildd-writer");
        let before = db.write_cpu_time().expect("Linux says what a thread used");
        let done: Result<(), WriteError> = db
            .transact(Lane::Worker, |tx| {
                Box::pin(async move {
                    // Work for SQLite's thread: far more than a clock tick of it.
                    sqlx::query(
                        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
                         WHERE i < 3000000) SELECT sum(i) FROM n",
                    )
                    .execute(tx.sqlite())
                    .await
                    .map_err(WriteError::Db)?;
                    Ok(())
                })
            })
            .await;
        done.unwrap();
        let after = db.write_cpu_time().unwrap();
        assert!(
            after >= before + Duration::from_millis(20),
            "{before:?} then {after:?}"
        );
    }

    /// A request's write is committed when its work returns `Ok`, and leaves nothing when
    /// it returns `Err` after writing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_write_commits_on_ok_and_leaves_nothing_on_err() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let kept: Result<&str, WriteError> = db
            .transact(Lane::Worker, |tx| {
                Box::pin(async move {
                    insert_team(tx, "kept").await;
                    Ok("answered")
                })
            })
            .await;
        assert_eq!(kept.unwrap(), "answered");
        let refused: Result<(), WriteError> = db
            .transact(Lane::Person, |tx| {
                Box::pin(async move {
                    insert_team(tx, "refused").await;
                    Err(WriteError::Db(sqlx::Error::Protocol("refused".into())))
                })
            })
            .await;
        assert!(
            matches!(&refused, Err(WriteError::Db(sqlx::Error::Protocol(why))) if why == "refused"),
            "{refused:?}"
        );
        assert_eq!(team_ids(&db).await, vec!["kept".to_string()]);
    }

    /// A request given up while its write waits leaves nothing of it, and the writes after
    /// it go on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_given_up_while_it_waits_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let held = db.write().await.unwrap();
        let given_up = {
            let db = db.clone();
            tokio::spawn(async move {
                db.transact(Lane::Worker, |tx| {
                    Box::pin(async move {
                        insert_team(tx, "given up").await;
                        Ok::<_, WriteError>(())
                    })
                })
                .await
            })
        };
        until_waiting(&db, 1).await;
        given_up.abort();
        assert!(given_up.await.unwrap_err().is_cancelled());
        held.commit().await.unwrap();
        db.transact(Lane::Worker, |tx| {
            Box::pin(async move {
                insert_team(tx, "after").await;
                Ok::<_, WriteError>(())
            })
        })
        .await
        .unwrap();
        assert_eq!(team_ids(&db).await, vec!["after".to_string()]);
    }

    /// A write dropped with nobody else writing is rolled back by the committer: its rows
    /// never show, and the next write goes through.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_write_alone_is_rolled_back_and_writes_go_on() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        insert_team(&mut tx, "dropped").await;
        drop(tx);
        let mut tx = db.write().await.unwrap();
        insert_team(&mut tx, "kept").await;
        tx.commit().await.unwrap();
        assert_eq!(team_ids(&db).await, vec!["kept".to_string()]);
        // Nothing is left open: closing commits nothing more, and reopening sees the same.
        db.close().await;
        let again = Db::open(&dir.path().join("d.db")).await.unwrap();
        assert_eq!(team_ids(&again).await, vec!["kept".to_string()]);
    }

    /// A group whose commit fails fails every member: none is acknowledged and none of their
    /// rows is there; the writer goes on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failed_commit_fails_every_member() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let held = db.write().await.unwrap();
        let bad = {
            let db = db.clone();
            tokio::spawn(async move {
                let mut tx = db.write().await.unwrap();
                // A foreign key checked only at COMMIT: the group's commit fails on it.
                sqlx::query("PRAGMA defer_foreign_keys = ON")
                    .execute(tx.sqlite())
                    .await
                    .unwrap();
                sqlx::query(
                    "INSERT INTO missions (id, team_id, title, created_at, updated_at) \
                     VALUES ('m', 'no such team', 'M', 'now', 'now')",
                )
                .execute(tx.sqlite())
                .await
                .unwrap();
                tx.commit().await
            })
        };
        until_waiting(&db, 1).await;
        let good = {
            let db = db.clone();
            tokio::spawn(async move {
                let mut tx = db.write().await.unwrap();
                insert_team(&mut tx, "innocent").await;
                tx.commit().await
            })
        };
        until_waiting(&db, 2).await;
        assert!(held.commit().await.is_err());
        assert!(bad.await.unwrap().is_err());
        assert!(good.await.unwrap().is_err());
        assert!(team_ids(&db).await.is_empty());
        let mut tx = db.write().await.unwrap();
        insert_team(&mut tx, "after").await;
        tx.commit().await.unwrap();
        assert_eq!(team_ids(&db).await, vec!["after".to_string()]);
    }

    /// Once the queue ahead would take longer than a worker's bound, a worker's write is
    /// refused at once; a person's, with a longer bound, still queues.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_long_queue_refuses_workers_first() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        // A write that holds the writer for 1.5 s while another waits sets what a turn is
        // expected to take.
        let slow = db.write().await.unwrap();
        let behind = {
            let db = db.clone();
            tokio::spawn(async move { db.write().await.unwrap().commit().await })
        };
        until_waiting(&db, 1).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        slow.commit().await.unwrap();
        behind.await.unwrap().unwrap();
        let held = db.write().await.unwrap();
        let queued = {
            let db = db.clone();
            tokio::spawn(async move { db.write().await.unwrap().commit().await })
        };
        until_waiting(&db, 1).await;
        match db
            .transact(Lane::Worker, |_| Box::pin(async { Ok(()) }))
            .await
        {
            Err(WriteError::Busy(backlog)) => assert!(backlog > Lane::Worker.bound()),
            Err(e) => panic!("{e:?}"),
            Ok(_) => panic!("a worker's write was let into a long queue"),
        }
        let person = {
            let db = db.clone();
            tokio::spawn(async move {
                db.transact(Lane::Person, |_| {
                    Box::pin(async { Ok::<_, WriteError>(()) })
                })
                .await
            })
        };
        until_waiting(&db, 2).await;
        held.commit().await.unwrap();
        queued.await.unwrap().unwrap();
        assert!(person.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn an_acknowledged_write_is_synced_at_commit() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let (mode,): (i64,) = sqlx::query_as("PRAGMA synchronous")
            .fetch_one(tx.sqlite())
            .await
            .unwrap();
        assert_eq!(mode, 2, "FULL");
        let (journal,): (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(tx.sqlite())
            .await
            .unwrap();
        assert_eq!(journal, "wal");
    }

    #[tokio::test]
    async fn temporary_structures_stay_in_memory_on_every_connection() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let temp_store = "PRAGMA temp_store";
        let mut tx = db.write().await.unwrap();
        let (written,): (i64,) = sqlx::query_as(temp_store)
            .fetch_one(tx.sqlite())
            .await
            .unwrap();
        drop(tx);
        let mut tx = db.read().await.unwrap();
        let (read,): (i64,) = sqlx::query_as(temp_store)
            .fetch_one(tx.sqlite())
            .await
            .unwrap();
        assert_eq!(
            (written, read),
            (2, 2),
            "MEMORY on the writer and the readers"
        );
    }

    #[tokio::test]
    async fn a_file_name_is_taken_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let name = "team#1 ?v=2 100%.db";
        let db = Db::open(&dir.path().join(name)).await.unwrap();
        let mut tx = db.write().await.unwrap();
        sqlx::query("INSERT INTO teams (id, name, created_at) VALUES ('t', 'T', 'now')")
            .execute(tx.sqlite())
            .await
            .unwrap();
        tx.commit().await.unwrap();
        db.close().await;
        let files: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(files.iter().any(|f| f == name), "{files:?}");
        let again = Db::open(&dir.path().join(name)).await.unwrap();
        let (teams,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM teams")
            .fetch_one(again.read().await.unwrap().sqlite())
            .await
            .unwrap();
        assert_eq!(teams, 1);
    }

    #[tokio::test]
    async fn ready_names_the_migrations_not_applied() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        assert_eq!(db.ready().await, Ok(()));
        let last = MIGRATOR.iter().map(|m| m.version).max().unwrap();
        let mut tx = db.write().await.unwrap();
        sqlx::query("DELETE FROM _sqlx_migrations WHERE version = ?")
            .bind(last)
            .execute(tx.sqlite())
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let refused = db.ready().await.unwrap_err();
        assert_eq!(refused, format!("migrations not applied: {last}"));
        db.close().await;
        let refused = db.ready().await.unwrap_err();
        assert!(refused.contains("does not answer"), "{refused}");
    }
}
