//! The SQLite database: one writer connection (so writes queue instead of failing with
//! SQLITE_BUSY) and a pool of readers, in WAL mode, migrated at open.

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

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
    pub async fn open(path: &Path) -> Result<Self, sqlx::Error> {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
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
        sqlx::migrate!("./migrations").run(&write).await?;
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
        self.write.begin().await
    }
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
}
