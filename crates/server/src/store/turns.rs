//! Turns for writes that decide from rows they do not write ("is any of the mission's work
//! still open?", "have all of the plan's children finished?", "was this plan approved?",
//! "which PR number is next?"). On Postgres, writes run side
//! by side: each such write first holds the row it decides about (`SELECT … FOR NO KEY
//! UPDATE`) until it commits, so two last tasks finishing together decide one after the
//! other, the second seeing the first. The hold does not stop rows that merely refer to the
//! held one (a task filed into the mission, whose foreign key check shares the row's key).
//! SQLite's one writer already runs them one at a time.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;

/// Holds mission `id` until the transaction ends.
pub async fn hold_mission(tx: &mut Tx, id: &str) -> ApiResult<()> {
    hold(
        tx,
        "SELECT 1 FROM missions WHERE id = ? FOR NO KEY UPDATE",
        id,
    )
    .await
}

/// Holds task `id` until the transaction ends.
pub async fn hold_task(tx: &mut Tx, id: &str) -> ApiResult<()> {
    hold(tx, "SELECT 1 FROM tasks WHERE id = ? FOR NO KEY UPDATE", id).await
}

/// Holds workspace `id` until the transaction ends.
pub async fn hold_workspace(tx: &mut Tx, id: &str) -> ApiResult<()> {
    hold(
        tx,
        "SELECT 1 FROM workspaces WHERE id = ? FOR NO KEY UPDATE",
        id,
    )
    .await
}

async fn hold(tx: &mut Tx, statement: &str, id: &str) -> ApiResult<()> {
    if tx.is_postgres() {
        sql::query(statement).bind(id).execute(tx).await?;
    }
    Ok(())
}
