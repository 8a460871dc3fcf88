//! Each team's count of writes to what its pages show (`teams.changes`, moved by triggers on
//! every table a page reads), for the change stream.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;

/// The count of every team, by id.
pub async fn all(tx: &mut Tx) -> ApiResult<Vec<(String, i64)>> {
    Ok(sql::query_as("SELECT id, changes FROM teams")
        .fetch_all(tx)
        .await?)
}

/// The count of one team; 0 for a team that is gone.
pub async fn of(tx: &mut Tx, team_id: &str) -> ApiResult<i64> {
    let row: Option<(i64,)> = sql::query_as("SELECT changes FROM teams WHERE id = ?")
        .bind(team_id)
        .fetch_optional(tx)
        .await?;
    Ok(row.map_or(0, |(n,)| n))
}
