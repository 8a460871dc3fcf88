//! The server's database on Postgres: a pool of connections to a database that several
//! replicas of the server share, its own migrations (`migrations-postgres/`, applied at open
//! under sqlx's advisory lock, so replicas starting together apply them once), and
//! buildd-core's rules installed as the SQL functions its triggers call.
//!
//! Every session has a statement timeout and an idle-in-transaction timeout, so a stuck
//! statement or a forgotten transaction cannot hold rows (and a connection) for good.

mod notices;
mod rules;
mod writes;

use crate::db::measures::record_wait;
use notices::KeyNotices;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;
use std::collections::BTreeSet;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
pub use writes::Hold;
use writes::Writes;

/// The Postgres migrations this binary carries.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations-postgres");

/// How long a readiness check waits for the database.
const READY_WITHIN: Duration = Duration::from_secs(2);

/// The longest a statement runs before Postgres cancels it: a request's own deadline.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest a session may sit idle inside a transaction before Postgres ends it.
pub const IDLE_IN_TRANSACTION_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a request waits for a connection of the pool before it fails.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);

/// Opens a pool of at most `connections` to the database at `url` (`postgres://…`), applies
/// pending migrations and installs buildd-core's rules.
pub async fn open(url: &str, connections: u32) -> Result<PgPool, sqlx::Error> {
    let options = PgConnectOptions::from_str(url)?
        .application_name("buildd-server")
        .options([
            (
                "statement_timeout",
                format!("{}ms", STATEMENT_TIMEOUT.as_millis()),
            ),
            (
                "idle_in_transaction_session_timeout",
                format!("{}ms", IDLE_IN_TRANSACTION_TIMEOUT.as_millis()),
            ),
        ]);
    let pool = pool(options, connections).await?;
    MIGRATOR.run(&pool).await?;
    rules::install(&pool).await?;
    Ok(pool)
}

async fn pool(options: PgConnectOptions, connections: u32) -> Result<PgPool, sqlx::Error> {
    PgPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_with(options)
        .await
}

/// A server's hold on the database: its pool, its count of writes, and what the other
/// servers tell it.
#[derive(Clone)]
pub struct PgDb {
    pub pool: PgPool,
    writes: Arc<Writes>,
    keys: Arc<KeyNotices>,
}

impl PgDb {
    pub async fn open(url: &str, connections: u32) -> Result<Self, sqlx::Error> {
        Ok(Self::over(open(url, connections).await?))
    }

    fn over(pool: PgPool) -> Self {
        let connections = pool.options().get_max_connections();
        let keys = Arc::new(KeyNotices::listen((*pool.connect_options()).clone()));
        Self {
            pool,
            writes: Writes::new(connections),
            keys,
        }
    }

    /// Another server's hold on the same database: a pool, counts and notices of its own.
    pub async fn replica(&self) -> Result<Self, sqlx::Error> {
        let options = (*self.pool.connect_options()).clone();
        let connections = self.pool.options().get_max_connections();
        Ok(Self::over(pool(options, connections).await?))
    }

    /// A write transaction, in its turn (see [`writes`]): its wait for the turn and a
    /// connection counted while it waits and recorded as `buildd_db_write_wait_seconds`, its
    /// hold from then until it ends.
    pub async fn begin_write(
        &self,
    ) -> Result<(sqlx::Transaction<'static, sqlx::Postgres>, Hold), sqlx::Error> {
        let started = std::time::Instant::now();
        let waiting = self.writes.queued();
        let hold = self.writes.turn().await;
        let tx = self.pool.begin().await?;
        drop(waiting);
        record_wait(started.elapsed());
        Ok((tx, hold))
    }

    /// How long the writes now waiting would take to get a connection.
    pub fn write_backlog(&self) -> Duration {
        self.writes.backlog()
    }

    /// Writes waiting for a connection now.
    pub fn writes_waiting(&self) -> usize {
        self.writes.waiting()
    }

    /// Notices that keys changed, heard from any server on the database (see [`notices`]).
    pub fn key_notices(&self) -> u64 {
        self.keys.count()
    }

    /// The pool's connections: open, and of those idle.
    pub fn connections(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }
}

/// Whether the database answers and holds exactly the migrations this binary carries;
/// what is not ready, in words, when not.
pub async fn ready(pool: &PgPool) -> Result<(), String> {
    let query = sqlx::query_scalar::<_, i64>(
        "SELECT version FROM _sqlx_migrations WHERE success ORDER BY version",
    )
    .fetch_all(pool);
    let applied: BTreeSet<i64> = match tokio::time::timeout(READY_WITHIN, query).await {
        Ok(Ok(rows)) => rows.into_iter().collect(),
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
    let carried: BTreeSet<i64> = MIGRATOR.iter().map(|m| m.version).collect();
    super::migrations::matching(&carried, &applied)
}
