//! The database generation: a number that moves on every write a polled read shows, so an
//! answer built at a generation stays true until it moves. On SQLite, a count moved by
//! triggers; on Postgres, where no row may be written by every write, the read's snapshot
//! itself (hashed): two reads with the same snapshot see the same rows.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;

/// The generation of the transaction's snapshot.
pub async fn current(tx: &mut Tx) -> ApiResult<i64> {
    let (value,): (i64,) = sql::query_as("SELECT value FROM generation WHERE id = 1")
        .postgres("SELECT hashtextextended(pg_current_snapshot()::text, 0)")
        .fetch_one(tx)
        .await?;
    Ok(value)
}
