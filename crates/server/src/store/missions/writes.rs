//! Writing missions: created, changed by a person, completed and reopened, released to the
//! missions waiting on them, and deleted with their schedule.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::budget::budget_string;
use buildd_core::money::Usd;
use buildd_core::{MissionStatus, OrchestrationMode, WorkMode};
use serde_json::Value;

/// A mission about to be written. [`NewMission::new`] gives the schema's defaults: active,
/// auto, priority 0, dispatched, no workspace, policy or review.
#[derive(Clone, Debug)]
pub struct NewMission {
    pub id: String,
    pub team_id: String,
    pub workspace_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    pub status: MissionStatus,
    pub priority: i64,
    pub requires_review: bool,
    pub orchestration_mode: OrchestrationMode,
    pub merge_policy: Option<Value>,
    pub mode: WorkMode,
    pub cost_budget_usd: Option<Usd>,
    /// Its tasks wait until a person arms it.
    pub is_held: bool,
    pub created_at: String,
    pub updated_at: String,
}

impl NewMission {
    /// An active auto mission of `team_id`, with a fresh id, created now.
    pub fn new(team_id: &str, title: impl Into<String>) -> Self {
        let at = now();
        Self {
            id: new_id(),
            team_id: team_id.to_string(),
            workspace_id: None,
            title: title.into(),
            description: None,
            status: MissionStatus::Active,
            priority: 0,
            requires_review: false,
            orchestration_mode: OrchestrationMode::Auto,
            merge_policy: None,
            mode: WorkMode::Dispatch,
            cost_budget_usd: None,
            is_held: false,
            created_at: at.clone(),
            updated_at: at,
        }
    }
}

/// Writes `mission`.
pub async fn insert(tx: &mut Tx, m: &NewMission) -> ApiResult<()> {
    sql::query(
        "INSERT INTO missions (id, team_id, workspace_id, title, description, status, priority, \
         requires_review, orchestration_mode, merge_policy, mode, cost_budget_usd, is_held, \
         created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&m.id)
    .bind(&m.team_id)
    .bind(&m.workspace_id)
    .bind(&m.title)
    .bind(&m.description)
    .bind(m.status.as_str())
    .bind(m.priority)
    .bind(m.requires_review)
    .bind(m.orchestration_mode.as_str())
    .bind(m.merge_policy.as_ref().map(Value::to_string))
    .bind(m.mode.as_str())
    .bind(m.cost_budget_usd.map(budget_string))
    .bind(m.is_held)
    .bind(&m.created_at)
    .bind(&m.updated_at)
    .execute(tx)
    .await?;
    Ok(())
}

/// What a person changes on a mission; `None` leaves a field as it is. The budget has its
/// own write ([`set_budget`]), as raising it may resume the mission.
#[derive(Default)]
pub struct MissionPatch {
    pub title: Option<String>,
    /// `Some(None)` clears it.
    pub description: Option<Option<String>>,
    pub status: Option<MissionStatus>,
    pub priority: Option<i64>,
    pub orchestration_mode: Option<OrchestrationMode>,
    /// `Some(None)` inherits the workspace's.
    pub merge_policy: Option<Option<Value>>,
    pub mode: Option<WorkMode>,
    pub requires_review: Option<bool>,
    /// Arms a held mission: its organizer may plan and its tasks be claimed.
    pub arm: bool,
}

/// Writes `patch` onto mission `id`.
pub async fn update(tx: &mut Tx, id: &str, patch: &MissionPatch, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE missions SET \
           title = COALESCE(?, title), \
           description = CASE WHEN ? <> 0 THEN ? ELSE description END, \
           status = COALESCE(?, status), \
           priority = COALESCE(?, priority), \
           orchestration_mode = COALESCE(?, orchestration_mode), \
           updated_at = ? \
         WHERE id = ?",
    )
    .bind(&patch.title)
    .bind(patch.description.is_some())
    .bind(patch.description.clone().flatten())
    .bind(patch.status.as_ref().map(MissionStatus::as_str))
    .bind(patch.priority)
    .bind(
        patch
            .orchestration_mode
            .as_ref()
            .map(OrchestrationMode::as_str),
    )
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    if let Some(policy) = &patch.merge_policy {
        sql::query("UPDATE missions SET merge_policy = ? WHERE id = ?")
            .bind(policy.as_ref().map(Value::to_string))
            .bind(id)
            .execute(tx)
            .await?;
    }
    if let Some(mode) = &patch.mode {
        sql::query("UPDATE missions SET mode = ? WHERE id = ?")
            .bind(mode.as_str())
            .bind(id)
            .execute(tx)
            .await?;
    }
    if patch.arm {
        sql::query("UPDATE missions SET is_held = 0 WHERE id = ?")
            .bind(id)
            .execute(tx)
            .await?;
    }
    if let Some(review) = patch.requires_review {
        sql::query("UPDATE missions SET requires_review = ? WHERE id = ?")
            .bind(review)
            .bind(id)
            .execute(tx)
            .await?;
    }
    Ok(())
}

/// Sets mission `id`'s budget (`None`: no budget), kept as Buildd keeps it, a decimal
/// string with cents; `resume` makes a mission that ran out of budget active again.
pub async fn set_budget(tx: &mut Tx, id: &str, usd: Option<Usd>, resume: bool) -> ApiResult<()> {
    sql::query(
        "UPDATE missions SET cost_budget_usd = ?, \
         status = CASE WHEN ? <> 0 THEN 'active' ELSE status END, updated_at = ? WHERE id = ?",
    )
    .bind(usd.map(budget_string))
    .bind(resume)
    .bind(now())
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Moves mission `id` from active to `budget_exhausted`; returns whether this call did, so
/// of two reports that cross the budget together only one tells the feed.
pub async fn exhaust(tx: &mut Tx, id: &str, at: &str) -> ApiResult<bool> {
    let done = sql::query(
        "UPDATE missions SET status = 'budget_exhausted', updated_at = ? \
         WHERE id = ? AND status = 'active'",
    )
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Completes mission `id` if it is active; returns whether this call completed it.
pub async fn complete(tx: &mut Tx, id: &str, at: &str) -> ApiResult<bool> {
    let done = sql::query(
        "UPDATE missions SET status = 'completed', updated_at = ? WHERE id = ? AND status = 'active'",
    )
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Makes mission `id` active again if it was completed; returns whether it was.
pub async fn reopen(tx: &mut Tx, id: &str, at: &str) -> ApiResult<bool> {
    let reopened = sql::query(
        "UPDATE missions SET status = 'active', updated_at = ? WHERE id = ? AND status = 'completed'",
    )
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(reopened.rows_affected() > 0)
}

/// Marks the dependency of the missions waiting on mission `id` met; returns their ids.
pub async fn release_dependents(tx: &mut Tx, id: &str, at: &str) -> ApiResult<Vec<String>> {
    let dependents: Vec<(String,)> = sql::query_as(
        "UPDATE missions SET dependency_met_at = ? \
         WHERE depends_on_mission_id = ? AND dependency_met_at IS NULL RETURNING id",
    )
    .bind(at)
    .bind(id)
    .fetch_all(tx)
    .await?;
    Ok(dependents.into_iter().map(|(id,)| id).collect())
}

/// Gives mission `id` its working branch, once, when `workspace_id` has a repo.
pub async fn set_working_branch(
    tx: &mut Tx,
    id: &str,
    workspace_id: &str,
    branch: &str,
) -> ApiResult<()> {
    sql::query(
        "UPDATE missions SET working_branch = ? WHERE id = ? AND working_branch IS NULL \
         AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = ? AND w.repo IS NOT NULL)",
    )
    .bind(branch)
    .bind(id)
    .bind(workspace_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// A task of mission `id` was claimed at `at`. Its own row, not the mission's: see
/// `mission_starts` in the migrations.
pub async fn task_started(tx: &mut Tx, id: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "INSERT INTO mission_starts (mission_id, at) VALUES (?, ?) \
         ON CONFLICT (mission_id) DO UPDATE SET at = excluded.at",
    )
    .bind(id)
    .bind(at)
    .execute(tx)
    .await?;
    Ok(())
}

/// Links mission `id` to its check-in schedule.
pub async fn set_schedule(tx: &mut Tx, id: &str, schedule_id: &str) -> ApiResult<()> {
    sql::query("UPDATE missions SET schedule_id = ? WHERE id = ?")
        .bind(schedule_id)
        .bind(id)
        .execute(tx)
        .await?;
    Ok(())
}

/// Deletes mission `id` and its check-in schedule `schedule_id`.
pub async fn delete(tx: &mut Tx, id: &str, schedule_id: Option<&str>) -> ApiResult<()> {
    sql::query("DELETE FROM missions WHERE id = ?")
        .bind(id)
        .execute(tx)
        .await?;
    if let Some(schedule_id) = schedule_id {
        sql::query("DELETE FROM schedules WHERE id = ?")
            .bind(schedule_id)
            .execute(tx)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;
    use crate::store::accounts::ensure_team;
    use crate::store::missions::find_mission;

    /// A mission written with `NewMission::new` reads back as one the schema's defaults made.
    #[tokio::test]
    async fn new_mission_defaults_are_the_schema_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let team = ensure_team(&mut tx, "t").await.unwrap();
        let ours = NewMission::new(&team, "ours");
        insert(&mut tx, &ours).await.unwrap();
        sql::query(
            "INSERT INTO missions (id, team_id, title, created_at, updated_at) \
             VALUES ('theirs', ?, 'theirs', ?, ?)",
        )
        .bind(&team)
        .bind(&ours.created_at)
        .bind(&ours.updated_at)
        .execute(&mut tx)
        .await
        .unwrap();
        let read = |m: crate::store::missions::MissionRow| {
            let mut v = serde_json::to_value(m.to_mission()).unwrap();
            v["id"] = Value::Null;
            v["title"] = Value::Null;
            v
        };
        let ours = read(find_mission(&mut tx, &team, &ours.id).await.unwrap());
        let theirs = read(find_mission(&mut tx, &team, "theirs").await.unwrap());
        assert_eq!(ours, theirs);
    }
}
