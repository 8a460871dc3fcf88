//! Writing a new task: every task — filed through the API, a plan's step, an organizer run,
//! a reviewer, a fix, an aggregation, a demo task — is one [`NewTask`] and one statement.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::{TaskCategory, TaskClass, TaskMode, TaskStatus};
use serde_json::{json, Value};

/// A task about to be written. [`NewTask::new`] gives the schema's defaults: a pending
/// piece of work (`execution`, `work`), priority 0, output `auto`, no dependencies.
#[derive(Clone, Debug)]
pub struct NewTask {
    pub id: String,
    pub team_id: String,
    pub workspace_id: String,
    pub mission_id: Option<String>,
    pub parent_task_id: Option<String>,
    pub title: String,
    pub description: Option<String>,
    /// A JSON object.
    pub context: Value,
    pub status: TaskStatus,
    pub priority: i64,
    pub mode: TaskMode,
    pub task_class: TaskClass,
    pub creation_source: Option<String>,
    pub category: Option<TaskCategory>,
    pub role_slug: Option<String>,
    pub output_requirement: String,
    pub required_capabilities: Vec<String>,
    pub depends_on: Vec<String>,
    pub result: Option<Value>,
    pub requires_review: bool,
    pub created_by_account_id: Option<String>,
    pub created_by_worker_id: Option<String>,
    /// Not claimed before this time.
    pub start_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl NewTask {
    /// A pending execution task of `team_id` in `workspace_id`, with a fresh id, created now.
    pub fn new(team_id: &str, workspace_id: &str, title: impl Into<String>) -> Self {
        let at = now();
        Self {
            id: new_id(),
            team_id: team_id.to_string(),
            workspace_id: workspace_id.to_string(),
            mission_id: None,
            parent_task_id: None,
            title: title.into(),
            description: None,
            context: json!({}),
            status: TaskStatus::Pending,
            priority: 0,
            mode: TaskMode::Execution,
            task_class: TaskClass::Work,
            creation_source: None,
            category: None,
            role_slug: None,
            output_requirement: "auto".into(),
            required_capabilities: vec![],
            depends_on: vec![],
            result: None,
            requires_review: false,
            created_by_account_id: None,
            created_by_worker_id: None,
            start_at: None,
            created_at: at.clone(),
            updated_at: at,
        }
    }
}

/// The statement both inserts share; `conflict` is what a unique index hit does.
async fn write(tx: &mut Tx, t: &NewTask, conflict: &str) -> ApiResult<u64> {
    let written = sql::query(&format!(
        "INSERT INTO tasks (id, team_id, workspace_id, mission_id, parent_task_id, title, \
         description, context, status, priority, mode, task_class, creation_source, category, \
         role_slug, output_requirement, required_capabilities, depends_on, result, \
         requires_review, created_by_account_id, created_by_worker_id, start_at, created_at, \
         updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) {conflict}"
    ))
    .bind(&t.id)
    .bind(&t.team_id)
    .bind(&t.workspace_id)
    .bind(&t.mission_id)
    .bind(&t.parent_task_id)
    .bind(&t.title)
    .bind(&t.description)
    .bind(t.context.to_string())
    .bind(t.status.as_str())
    .bind(t.priority)
    .bind(t.mode.as_str())
    .bind(t.task_class.as_str())
    .bind(&t.creation_source)
    .bind(t.category.as_ref().map(TaskCategory::as_str))
    .bind(&t.role_slug)
    .bind(&t.output_requirement)
    .bind(serde_json::to_string(&t.required_capabilities)?)
    .bind(serde_json::to_string(&t.depends_on)?)
    .bind(t.result.as_ref().map(Value::to_string))
    .bind(t.requires_review)
    .bind(&t.created_by_account_id)
    .bind(&t.created_by_worker_id)
    .bind(&t.start_at)
    .bind(&t.created_at)
    .bind(&t.updated_at)
    .execute(tx)
    .await?;
    Ok(written.rows_affected())
}

/// Writes `task`.
pub async fn insert(tx: &mut Tx, task: &NewTask) -> ApiResult<()> {
    write(tx, task, "").await.map(|_| ())
}

/// Writes `task` unless a unique index already holds its place — a mission's one organizer
/// run in flight, a plan's one aggregation — and says whether it did.
pub async fn insert_unless_taken(tx: &mut Tx, task: &NewTask) -> ApiResult<bool> {
    Ok(write(tx, task, "ON CONFLICT DO NOTHING").await? > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;
    use crate::store::accounts::ensure_team;
    use crate::store::tasks::find_task;
    use crate::store::workspaces::{insert as insert_workspace, NewWorkspace};

    /// A task written with `NewTask::new` reads back as one the schema's defaults made.
    #[tokio::test]
    async fn new_task_defaults_are_the_schema_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let team = ensure_team(&mut tx, "t").await.unwrap();
        let workspace = NewWorkspace::new(&team, "w");
        insert_workspace(&mut tx, &workspace).await.unwrap();

        let ours = NewTask::new(&team, &workspace.id, "ours");
        insert(&mut tx, &ours).await.unwrap();
        sql::query(
            "INSERT INTO tasks (id, team_id, workspace_id, title, created_at, updated_at) \
             VALUES ('theirs', ?, ?, 'theirs', ?, ?)",
        )
        .bind(&team)
        .bind(&workspace.id)
        .bind(&ours.created_at)
        .bind(&ours.updated_at)
        .execute(&mut tx)
        .await
        .unwrap();

        let ours = find_task(&mut tx, &team, &ours.id).await.unwrap().to_task();
        let theirs = find_task(&mut tx, &team, "theirs").await.unwrap().to_task();
        let strip = |task: buildd_core::Task| {
            let mut v = serde_json::to_value(task).unwrap();
            v["id"] = Value::Null;
            v["title"] = Value::Null;
            v
        };
        assert_eq!(strip(ours), strip(theirs));
    }

    /// A second organizer run in flight is not written, and says so.
    #[tokio::test]
    async fn insert_unless_taken_reports_a_taken_place() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.write().await.unwrap();
        let team = ensure_team(&mut tx, "t").await.unwrap();
        let workspace = NewWorkspace::new(&team, "w");
        insert_workspace(&mut tx, &workspace).await.unwrap();
        let mission = crate::store::missions::NewMission::new(&team, "m");
        crate::store::missions::insert(&mut tx, &mission)
            .await
            .unwrap();
        let run = || NewTask {
            mission_id: Some(mission.id.clone()),
            mode: TaskMode::Planning,
            ..NewTask::new(&team, &workspace.id, "Mission: m")
        };
        assert!(insert_unless_taken(&mut tx, &run()).await.unwrap());
        assert!(!insert_unless_taken(&mut tx, &run()).await.unwrap());
    }
}
