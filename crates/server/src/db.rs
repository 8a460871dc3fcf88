//! The SQLite database: one writer connection (so writes queue instead of failing with
//! SQLITE_BUSY) and a pool of readers, in WAL mode, migrated at open. How long a write waits
//! for the writer is recorded (`buildd_db_write_wait_seconds`): the first sign that writes
//! queue behind each other.

use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection, SqlitePool};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

/// The migrations this binary carries.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// How long `/readyz` waits for a reader before saying the database does not answer.
const READY_WITHIN: Duration = Duration::from_secs(2);

pub type Tx = sqlx::Transaction<'static, sqlx::Sqlite>;

#[derive(Clone)]
pub struct Db {
    read: SqlitePool,
    write: SqlitePool,
}

impl Db {
    /// Closes every connection, once the writes in flight are done (the WAL is checkpointed
    /// as the last connection closes).
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
    }

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    /// The path is a file name as it is: spaces, `#`, `?` and `%` are part of it.
    pub async fn open(path: &Path) -> Result<Self, sqlx::Error> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // An acknowledged write survives a power loss: the WAL is synced at each commit
            // (NORMAL could lose the last commits; `cargo xtask bench` shows the cost).
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        MIGRATOR.run(&write).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options.read_only(true))
            .await?;
        Ok(Self { read, write })
    }

    /// A read transaction: every query in it sees one snapshot.
    pub async fn read(&self) -> Result<Tx, sqlx::Error> {
        self.read.begin().await
    }

    /// The write transaction of a request; writers take turns on one connection.
    pub async fn write(&self) -> Result<Tx, sqlx::Error> {
        let asked = Instant::now();
        let tx = self.write.begin().await;
        metrics::histogram!("buildd_db_write_wait_seconds").record(asked.elapsed());
        tx
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
        let missing: Vec<String> = carried.difference(&applied).map(i64::to_string).collect();
        if !missing.is_empty() {
            return Err(format!("migrations not applied: {}", missing.join(", ")));
        }
        let unknown: Vec<String> = applied.difference(&carried).map(i64::to_string).collect();
        if !unknown.is_empty() {
            return Err(format!(
                "the database has migrations this server does not know (a newer one ran): {}",
                unknown.join(", ")
            ));
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_acknowledged_write_is_synced_at_commit() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let (mode,): (i64,) = sqlx::query_as("PRAGMA synchronous")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        assert_eq!(mode, 2, "FULL");
        let (journal,): (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        assert_eq!(journal, "wal");
    }

    #[tokio::test]
    async fn a_file_name_is_taken_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let name = "team#1 ?v=2 100%.db";
        let db = Db::open(&dir.path().join(name)).await.unwrap();
        let mut tx = db.write().await.unwrap();
        sqlx::query("INSERT INTO teams (id, name, created_at) VALUES ('t', 'T', 'now')")
            .execute(&mut *tx)
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
            .fetch_one(&mut *again.read().await.unwrap())
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
            .execute(&mut *tx)
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
