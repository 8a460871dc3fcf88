//! Checkpoints beside the writer, not inside its commits. In WAL mode a commit appends pages
//! to the log; a checkpoint copies them back into the database file (each read from the
//! log, written, and the file synced). Left to SQLite, the connection that commits runs the
//! checkpoint whenever the log passes 1,000 pages, so under load every few groups one commit
//! also copies a few thousand pages while every queued write waits for it. Here a connection
//! of its own copies what was committed a few times a second, while the writer goes on
//! appending (SQLite lets the two run together).
//!
//! The log starts again from its beginning only when a write begins and finds all of it
//! copied, which writes without a pause never do. So the writer still checkpoints, as
//! SQLite would, once the log passes [`BACKSTOP_PAGES`]; by then nearly everything was
//! copied and little is left to do in the commit.

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, SqliteConnection};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Mutex};
use tokio::task::JoinHandle;

/// The log's size, in pages, past which the writer's own commit checkpoints (SQLite's
/// `wal_autocheckpoint`): about 32 MB of log with 4 KB pages.
pub(crate) const BACKSTOP_PAGES: i64 = 8_000;

/// How often committed pages are copied.
const EVERY: Duration = Duration::from_millis(50);

/// The checkpointing task; cheap to clone. It stops when [`Checkpointer::close`] is called
/// or every clone is gone.
#[derive(Clone)]
pub(crate) struct Checkpointer {
    stop: Arc<watch::Sender<bool>>,
    task: Arc<Mutex<Option<JoinHandle<()>>>>,
}

/// What one pass found: the log's pages, and how many of them are in the database file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pass {
    log: i64,
    copied: i64,
}

impl Checkpointer {
    /// Opens a connection of its own with `options` and starts copying; `commits` counts the
    /// writer's commits, so an idle database is left alone.
    pub(crate) async fn start(
        options: &SqliteConnectOptions,
        commits: impl Fn() -> u64 + Send + 'static,
    ) -> Result<Self, sqlx::Error> {
        let conn = options.connect().await?;
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(run(conn, commits, stopped));
        Ok(Self {
            stop: Arc::new(stop),
            task: Arc::new(Mutex::new(Some(task))),
        })
    }

    /// Stops copying and closes the connection. Called after the other connections closed,
    /// it is the last: SQLite then copies the whole log and removes it.
    pub(crate) async fn close(&self) {
        self.stop.send_replace(true);
        if let Some(task) = self.task.lock().await.take() {
            let _ = task.await;
        }
    }
}

async fn run(
    mut conn: SqliteConnection,
    commits: impl Fn() -> u64,
    mut stopped: watch::Receiver<bool>,
) {
    // Commits counted at the last pass that left nothing to copy.
    let mut settled = None;
    loop {
        tokio::select! {
            _ = tokio::time::sleep(EVERY) => {}
            // Asked to stop, or every handle is gone.
            _ = stopped.changed() => break,
        }
        let now = commits();
        if settled == Some(now) {
            continue;
        }
        match pass(&mut conn).await {
            Ok(p) => {
                // A reader may have kept some pages from being copied: the next pass tries
                // again, commits or not.
                settled = (p.copied == p.log).then_some(now);
                metrics::gauge!("buildd_db_wal_uncopied_pages").set((p.log - p.copied) as f64);
            }
            Err(e) => {
                settled = None;
                tracing::warn!("checkpoint: {e}");
            }
        }
    }
    let _ = conn.close().await;
}

/// Copies what was committed and what no reader still needs, without waiting for readers
/// or the writer (`PASSIVE`).
async fn pass(conn: &mut SqliteConnection) -> Result<Pass, sqlx::Error> {
    let (_busy, log, copied): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(conn)
        .await?;
    Ok(Pass { log, copied })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{Db, Lane, Tx, WriteError};

    async fn insert_team(tx: &mut Tx, i: usize) -> Result<(), WriteError> {
        // A row of its own page or so, so the log grows by pages.
        sqlx::query("INSERT INTO teams (id, name, created_at) VALUES (?1, ?2, 'now')")
            .bind(format!("t{i}"))
            .bind(format!("{i}{}", "x".repeat(3000)))
            .execute(tx.sqlite())
            .await?;
        Ok(())
    }

    /// Commits `teams` rows, one write each.
    async fn write_teams(db: &Db, teams: usize) {
        for i in 0..teams {
            db.transact(Lane::Person, move |tx| Box::pin(insert_team(tx, i)))
                .await
                .unwrap();
        }
    }

    fn size(path: &std::path::Path) -> u64 {
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
    }

    /// Committed pages reach the database file while the server runs, though the log holds
    /// far fewer pages than would make the writer (or SQLite's default) checkpoint.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn committed_pages_are_copied_into_the_database_file_beside_the_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        let db = Db::open(&path).await.unwrap();
        let before = size(&path);
        write_teams(&db, 100).await;
        let wal = size(&dir.path().join("d.db-wal"));
        assert!(wal < 1_000 * 4_096, "the log holds {wal} bytes");
        // About 300 KB of rows; a pass comes every EVERY.
        let mut waited = Duration::ZERO;
        while size(&path) < before + 250_000 {
            assert!(
                waited < Duration::from_secs(30),
                "the database file stayed at {} bytes",
                size(&path)
            );
            tokio::time::sleep(EVERY).await;
            waited += EVERY;
        }
        db.close().await;
    }

    /// The writer's own commits checkpoint only past the backstop.
    #[tokio::test]
    async fn the_writers_autocheckpoint_is_the_backstop() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let (pages,): (i64,) = sqlx::query_as("PRAGMA wal_autocheckpoint")
            .fetch_one(tx.sqlite())
            .await
            .unwrap();
        assert_eq!(pages, BACKSTOP_PAGES);
    }

    /// A pass reports the log and what of it is copied: all of it, with nobody reading.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_pass_copies_the_whole_log_when_nobody_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        let db = Db::open(&path).await.unwrap();
        write_teams(&db, 20).await;
        let mut conn = SqliteConnectOptions::new()
            .filename(&path)
            .connect()
            .await
            .unwrap();
        let p = pass(&mut conn).await.unwrap();
        assert!(p.log > 0, "{p:?}");
        assert_eq!(p.copied, p.log);
        conn.close().await.unwrap();
        db.close().await;
    }

    /// Closed, the server leaves the whole log copied into the database file and no log.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_closed_database_leaves_no_log() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.db");
        let db = Db::open(&path).await.unwrap();
        write_teams(&db, 20).await;
        db.close().await;
        assert!(!dir.path().join("d.db-wal").exists(), "the log is left");
        let db = Db::open(&path).await.unwrap();
        let (teams,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM teams")
            .fetch_one(db.read().await.unwrap().sqlite())
            .await
            .unwrap();
        assert_eq!(teams, 20);
    }
}
