//! The database generation: one count moved by triggers on every write a polled read
//! shows, so an answer built at a generation stays true until it moves.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;

/// The generation of the transaction's snapshot.
pub async fn current(tx: &mut Tx) -> ApiResult<i64> {
    let (value,): (i64,) = sql::query_as("SELECT value FROM generation WHERE id = 1")
        .fetch_one(tx)
        .await?;
    Ok(value)
}
