//! Finding missions: by id within a team or whatever its team.

use super::row::{MissionRow, MISSION_COLUMNS};
use crate::db::sql;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};

/// The mission `id` of `team_id`; another team's mission is "not found".
pub async fn find_mission(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<MissionRow> {
    sql::query_as::<MissionRow>(&format!(
        "SELECT {MISSION_COLUMNS} FROM missions m WHERE m.id = ? AND m.team_id = ?"
    ))
    .bind(id)
    .bind(team_id)
    .fetch_optional(tx)
    .await?
    .ok_or(ApiError::NotFound("Mission not found"))
}

/// The mission `id`, whatever its team: for workflows that start from a row already scoped.
pub async fn mission_by_id(tx: &mut Tx, id: &str) -> ApiResult<Option<MissionRow>> {
    Ok(sql::query_as(&format!(
        "SELECT {MISSION_COLUMNS} FROM missions m WHERE m.id = ?"
    ))
    .bind(id)
    .fetch_optional(tx)
    .await?)
}

/// The mission `id` that a workflow already holds a reference to; gone is a fault.
pub async fn existing_mission(tx: &mut Tx, id: &str) -> ApiResult<MissionRow> {
    mission_by_id(tx, id)
        .await?
        .ok_or_else(|| ApiError::Internal(format!("mission {id} vanished")))
}

/// How many missions the database holds, of every team.
pub async fn count_all(tx: &mut Tx) -> ApiResult<i64> {
    let (missions,): (i64,) = sql::query_as("SELECT COUNT(*) FROM missions")
        .fetch_one(tx)
        .await?;
    Ok(missions)
}
