//! The server's database on Postgres: a pool of connections to a database that several
//! replicas of the server share, its own migrations (`migrations-postgres/`, applied at open
//! under sqlx's advisory lock, so replicas starting together apply them once), and
//! buildd-core's rules installed as the SQL functions its triggers call.

mod rules;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;
use std::collections::BTreeSet;
use std::str::FromStr;
use std::time::Duration;

/// The Postgres migrations this binary carries.
static MIGRATOR: Migrator = sqlx::migrate!("./migrations-postgres");

/// How long a readiness check waits for the database.
const READY_WITHIN: Duration = Duration::from_secs(2);

/// Opens a pool of at most `connections` to the database at `url` (`postgres://…`), applies
/// pending migrations and installs buildd-core's rules.
pub async fn open(url: &str, connections: u32) -> Result<PgPool, sqlx::Error> {
    let options = PgConnectOptions::from_str(url)?.application_name("buildd-server");
    let pool = PgPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await?;
    MIGRATOR.run(&pool).await?;
    rules::install(&pool).await?;
    Ok(pool)
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
