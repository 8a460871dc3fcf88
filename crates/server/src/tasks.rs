//! `/api/tasks`: list with filters and pagination, create, detail, update.

use crate::auth::Caller;
use crate::body::{Field, JsonObject};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::missions::team_workspace;
use crate::rows::*;
use crate::state::AppState;
use crate::time::{new_id, now};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use buildd_core::*;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

/// The task `id` of the caller's team; another team's task is "not found".
pub async fn find_task(tx: &mut Tx, team_id: &str, id: &str) -> ApiResult<TaskRow> {
    sqlx::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE t.id = ? AND t.team_id = ?"
    ))
    .bind(id)
    .bind(team_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or(ApiError::NotFound("Task not found"))
}

/// `status` filter values: task statuses, or `active` for every unfinished one.
fn status_filter(value: &str) -> ApiResult<Vec<String>> {
    let mut out = Vec::new();
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part == "active" {
            out.extend(
                TaskStatus::ALL
                    .iter()
                    .filter(|s| !s.is_terminal())
                    .map(|s| s.as_str().to_string()),
            );
        } else if TaskStatus::known(part).is_some() {
            out.push(part.to_string());
        } else {
            return Err(ApiError::bad(format!(
                "status must be one of: {}, active",
                TaskStatus::list()
            )));
        }
    }
    Ok(out)
}

fn number(query: &HashMap<String, String>, key: &str) -> ApiResult<Option<i64>> {
    query
        .get(key)
        .map(|v| {
            v.parse::<i64>()
                .map_err(|_| ApiError::bad(format!("{key} must be an integer")))
        })
        .transpose()
}

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let statuses = match query.get("status") {
        Some(s) => Some(status_filter(s)?),
        None => None,
    };
    let limit = number(&query, "limit")?.map(|l| l.clamp(1, 200));
    let offset = number(&query, "offset")?.unwrap_or(0).max(0);
    let statuses_json = statuses.map(|s| serde_json::to_string(&s)).transpose()?;
    let filter = "t.team_id = ?1 AND (?2 IS NULL OR t.mission_id = ?2) \
        AND (?3 IS NULL OR t.workspace_id = ?3) \
        AND (?4 IS NULL OR t.status IN (SELECT value FROM json_each(?4)))";
    let mission_id = query.get("missionId");
    let workspace_id = query.get("workspaceId");

    let mut tx = state.db.read().await?;
    let Some(limit) = limit else {
        let rows: Vec<TaskRow> = sqlx::query_as(&format!(
            "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE {filter} \
             ORDER BY t.created_at DESC, t.rowid DESC LIMIT 200"
        ))
        .bind(&caller.team_id)
        .bind(mission_id)
        .bind(workspace_id)
        .bind(&statuses_json)
        .fetch_all(&mut *tx)
        .await?;
        let workspaces: HashMap<String, TaskWorkspace> = team_workspaces(&mut tx, &caller.team_id)
            .await?
            .into_iter()
            .map(|w| (w.id.clone(), w.to_task_workspace()))
            .collect();
        let tasks = rows
            .iter()
            .map(|t| t.to_list_item(workspaces.get(&t.workspace_id).cloned()))
            .collect();
        let window = json!({"resetAt": null, "resolution": "default_budget_window"});
        return Ok(Json(TaskList {
            tasks,
            budget_windows: Some(json!({"claude": window, "codex": window})),
        })
        .into_response());
    };

    let rows: Vec<TaskRow> = sqlx::query_as(&format!(
        "SELECT {TASK_COLUMNS} FROM {TASK_FROM} WHERE {filter} \
         ORDER BY CASE t.status WHEN 'pending' THEN 0 WHEN 'assigned' THEN 1 \
           WHEN 'in_progress' THEN 2 ELSE 3 END, t.priority DESC, t.created_at DESC, t.rowid DESC \
         LIMIT ?5 OFFSET ?6"
    ))
    .bind(&caller.team_id)
    .bind(mission_id)
    .bind(workspace_id)
    .bind(&statuses_json)
    .bind(limit)
    .bind(offset)
    .fetch_all(&mut *tx)
    .await?;
    let (total, pending): (i64, i64) = sqlx::query_as(&format!(
        "SELECT COUNT(*), COALESCE(SUM(t.status = 'pending'), 0) FROM tasks t WHERE {filter}"
    ))
    .bind(&caller.team_id)
    .bind(mission_id)
    .bind(workspace_id)
    .bind(&statuses_json)
    .fetch_one(&mut *tx)
    .await?;
    let tasks: Vec<TaskPageItem> = rows
        .iter()
        .map(|t| TaskPageItem {
            id: t.id.clone(),
            workspace_id: t.workspace_id.clone(),
            title: t.title.clone(),
            status: t.status(),
            priority: t.priority,
            category: t.category.clone(),
            description_preview: description_preview(t.description.as_deref()),
        })
        .collect();
    let has_more = offset + (tasks.len() as i64) < total;
    Ok(Json(TaskPage {
        tasks,
        total: total as u64,
        pending_count: pending as u64,
        has_more,
    })
    .into_response())
}

pub async fn team_workspaces(tx: &mut Tx, team_id: &str) -> ApiResult<Vec<WorkspaceRow>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {WORKSPACE_COLUMNS} FROM workspaces ws WHERE ws.team_id = ? ORDER BY ws.name"
    ))
    .bind(team_id)
    .fetch_all(&mut **tx)
    .await?)
}

/// Resolves `workspaceId` as Buildd does: an id, an exact repo, or a workspace name, within
/// the caller's team. Left out, a team with exactly one workspace uses it.
async fn resolve_workspace(
    tx: &mut Tx,
    team_id: &str,
    given: Option<String>,
) -> ApiResult<WorkspaceRow> {
    let all = team_workspaces(tx, team_id).await?;
    match given {
        Some(x) => all
            .into_iter()
            .find(|w| {
                w.id == x
                    || w.repo
                        .as_deref()
                        .is_some_and(|r| r.eq_ignore_ascii_case(&x))
                    || w.name.eq_ignore_ascii_case(&x)
            })
            .ok_or_else(|| ApiError::bad(format!("No workspace found matching \"{x}\""))),
        None if all.len() == 1 => Ok(all.into_iter().next().expect("one workspace")),
        None => Err(ApiError::bad("workspaceId is required")),
    }
}

/// Checks `dependsOn` ids: tasks of the same workspace, not the task itself.
async fn check_dependencies(
    tx: &mut Tx,
    team_id: &str,
    workspace_id: &str,
    task_id: &str,
    ids: &[String],
) -> ApiResult<()> {
    if ids.iter().any(|d| d == task_id) {
        return Err(ApiError::bad("dependsOn: a task cannot depend on itself"));
    }
    let known: Vec<(String,)> = sqlx::query_as(
        "SELECT id FROM tasks WHERE team_id = ? AND workspace_id = ? \
         AND id IN (SELECT value FROM json_each(?))",
    )
    .bind(team_id)
    .bind(workspace_id)
    .bind(serde_json::to_string(ids)?)
    .fetch_all(&mut **tx)
    .await?;
    let known: HashSet<String> = known.into_iter().map(|(id,)| id).collect();
    let unknown: Vec<&str> = ids
        .iter()
        .filter(|id| !known.contains(*id))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        Err(ApiError::bad(format!(
            "dependsOn references unknown tasks in this workspace: {}",
            unknown.join(", ")
        )))
    }
}

/// Refuses a `dependsOn` change on `task_id` that would close a cycle, naming it.
async fn check_no_cycle(
    tx: &mut Tx,
    team_id: &str,
    task_id: &str,
    deps: &[String],
) -> ApiResult<()> {
    let edges: Vec<(String, String)> =
        sqlx::query_as("SELECT id, depends_on FROM tasks WHERE team_id = ? AND depends_on != '[]'")
            .bind(team_id)
            .fetch_all(&mut **tx)
            .await?;
    let mut graph: HashMap<String, Vec<String>> = edges
        .into_iter()
        .map(|(id, d)| (id, serde_json::from_str(&d).unwrap_or_default()))
        .collect();
    graph.insert(task_id.to_string(), deps.to_vec());
    // Depth-first from the task: reaching it again is a cycle.
    let mut stack: Vec<(String, Vec<String>)> =
        vec![(task_id.to_string(), vec![task_id.to_string()])];
    let mut seen = HashSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            let mut p = path.clone();
            p.push(next.clone());
            if next == task_id {
                return Err(ApiError::bad(format!(
                    "dependsOn would create a cycle: {}",
                    p.join(" → ")
                )));
            }
            if seen.insert(next.clone()) {
                stack.push((next.clone(), p));
            }
        }
    }
    Ok(())
}

fn output_requirement(value: &str) -> ApiResult<OutputRequirement> {
    OutputRequirement::known(value).ok_or_else(|| {
        ApiError::bad(format!(
            "outputRequirement must be one of: {}",
            OutputRequirement::list()
        ))
    })
}

/// Reopens a completed mission that got new or reopened work.
async fn reopen_mission(tx: &mut Tx, mission_id: &str, at: &str) -> ApiResult<()> {
    let reopened = sqlx::query(
        "UPDATE missions SET status = 'active', updated_at = ? WHERE id = ? AND status = 'completed'",
    )
    .bind(at)
    .bind(mission_id)
    .execute(&mut **tx)
    .await?;
    if reopened.rows_affected() > 0 {
        sqlx::query(
            "UPDATE schedules SET enabled = 1, updated_at = ? \
             WHERE id = (SELECT schedule_id FROM missions WHERE id = ?)",
        )
        .bind(at)
        .bind(mission_id)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> ApiResult<Json<Value>> {
    caller.require_admin()?;
    let title = body.required_string("title", "Title is required")?;
    if let Some(mode) = body.string("mode")?.value() {
        if mode != "execution" {
            return Err(ApiError::bad(
                "mode must be \"execution\": planning tasks are opened by a mission's organizer",
            ));
        }
    }
    let description = body.string("description")?.value();
    let priority = body.integer("priority")?.value().unwrap_or(0);
    let mission_id = body.string("missionId")?.value();
    let parent_task_id = body.string("parentTaskId")?.value();
    let depends_on = body.string_array("dependsOn")?.value().unwrap_or_default();
    let role_slug = body.string("roleSlug")?.value().filter(|s| !s.is_empty());
    let category = body.string("category")?.value();
    let requires_review = body.boolean("requiresReview")?.value().unwrap_or(false);
    let context = body.object("context")?.value().unwrap_or_default();
    let requirement = match body.string("outputRequirement")?.value() {
        Some(r) => Some(output_requirement(&r)?),
        None => None,
    };

    let mut tx = state.db.write().await?;
    let workspace = resolve_workspace(
        &mut tx,
        &caller.team_id,
        body.string("workspaceId")?.value(),
    )
    .await?;
    let mission = match &mission_id {
        Some(m) => Some(crate::mission_views::find_mission(&mut tx, &caller.team_id, m).await?),
        None => None,
    };
    if let Some(parent) = &parent_task_id {
        find_task(&mut tx, &caller.team_id, parent)
            .await
            .map_err(|_| ApiError::bad("parentTaskId references an unknown task"))?;
    }
    let id = new_id();
    check_dependencies(&mut tx, &caller.team_id, &workspace.id, &id, &depends_on).await?;
    let requirement = requirement
        .map(|r| r.as_str().to_string())
        .or_else(|| {
            mission
                .as_ref()
                .and_then(|m| m.default_output_requirement.clone())
        })
        .unwrap_or_else(|| "auto".into());
    let at = now();
    sqlx::query(
        "INSERT INTO tasks (id, team_id, workspace_id, mission_id, parent_task_id, title, \
         description, context, priority, task_class, created_by_account_id, creation_source, \
         category, output_requirement, role_slug, depends_on, requires_review, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'api', ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&id)
    .bind(&caller.team_id)
    .bind(&workspace.id)
    .bind(&mission_id)
    .bind(&parent_task_id)
    .bind(&title)
    .bind(&description)
    .bind(Value::Object(context).to_string())
    .bind(priority)
    .bind(class_for_new_task(&title).as_str())
    .bind(&caller.account_id)
    .bind(&category)
    .bind(&requirement)
    .bind(&role_slug)
    .bind(serde_json::to_string(&depends_on)?)
    .bind(requires_review)
    .bind(&at)
    .bind(&at)
    .execute(&mut *tx)
    .await?;
    if let Some(m) = &mission_id {
        reopen_mission(&mut tx, m, &at).await?;
    }
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    let mut out = serde_json::to_value(row.to_task())?;
    out["subjectIntakeOutcome"] = json!({"action": "created", "taskId": id});
    Ok(Json(out))
}

pub async fn detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Task>> {
    let include_workers = query
        .get("include")
        .is_some_and(|i| i.split(',').any(|p| p.trim() == "workers"));
    let mut tx = state.db.read().await?;
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    let mut task = row.to_task();
    task.workspace = Some(
        team_workspace(&mut tx, &caller.team_id, &row.workspace_id)
            .await?
            .to_workspace(),
    );
    if let Some(m) = &row.mission_id {
        let mission = crate::mission_views::find_mission(&mut tx, &caller.team_id, m).await?;
        task.mission = Some(TaskMissionRef {
            id: mission.id.clone(),
            title: mission.title.clone(),
            status: mission.status(),
        });
    }
    if include_workers {
        let workers: Vec<WorkerRow> = sqlx::query_as(&format!(
            "SELECT {WORKER_COLUMNS} FROM workers w WHERE w.task_id = ? ORDER BY {WORKER_ORDER}"
        ))
        .bind(&id)
        .fetch_all(&mut *tx)
        .await?;
        task.workers = Some(workers.iter().map(WorkerRow::to_task_worker).collect());
    }
    Ok(Json(task))
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Task>> {
    caller.require_admin()?;
    let title = body.non_blank_string("title")?;
    let description = body.string("description")?;
    let priority = body.integer("priority")?;
    if matches!(priority, Field::Null) {
        return Err(ApiError::bad("priority must be an integer"));
    }
    let role_slug = body.string("roleSlug")?;
    let mission_id = body.string("missionId")?;
    let depends_on = body.string_array("dependsOn")?;
    if matches!(depends_on, Field::Null) {
        return Err(ApiError::bad("dependsOn must be an array of task IDs"));
    }
    const SETTABLE: [TaskStatus; 4] = [
        TaskStatus::Pending,
        TaskStatus::Completed,
        TaskStatus::Failed,
        TaskStatus::Cancelled,
    ];
    let status = match body.string("status")? {
        Field::Absent => None,
        Field::Set(s) if TaskStatus::known(&s).is_some_and(|s| SETTABLE.contains(&s)) => {
            Some(TaskStatus::parse(&s))
        }
        _ => {
            return Err(ApiError::bad(
                "Invalid status. Allowed: pending, completed, failed, cancelled",
            ))
        }
    };

    let mut tx = state.db.write().await?;
    let row = find_task(&mut tx, &caller.team_id, &id).await?;
    if let Field::Set(m) = &mission_id {
        crate::mission_views::find_mission(&mut tx, &caller.team_id, m).await?;
    }
    if let Field::Set(deps) = &depends_on {
        check_dependencies(&mut tx, &caller.team_id, &row.workspace_id, &id, deps).await?;
        check_no_cycle(&mut tx, &caller.team_id, &id, deps).await?;
    }
    if let Some(s) = &status {
        if matches!(s, TaskStatus::Completed | TaskStatus::Failed) {
            let (live,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM workers WHERE task_id = ? \
                 AND status IN ('running', 'waiting_input')",
            )
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
            if live > 0 {
                return Err(ApiError::Conflict(
                    "Cannot change status directly — task has an active worker. \
                     Use complete_task via the worker instead."
                        .into(),
                ));
            }
        }
    }
    let at = now();
    let clear_claim = status == Some(TaskStatus::Pending);
    sqlx::query(
        "UPDATE tasks SET \
           title = COALESCE(?1, title), \
           description = CASE WHEN ?2 THEN ?3 ELSE description END, \
           priority = COALESCE(?4, priority), \
           role_slug = CASE WHEN ?5 THEN NULLIF(?6, '') ELSE role_slug END, \
           mission_id = CASE WHEN ?7 THEN NULLIF(?8, '') ELSE mission_id END, \
           depends_on = COALESCE(?9, depends_on), \
           status = COALESCE(?10, status), \
           claimed_by = CASE WHEN ?11 THEN NULL ELSE claimed_by END, \
           claimed_at = CASE WHEN ?11 THEN NULL ELSE claimed_at END, \
           expires_at = CASE WHEN ?11 THEN NULL ELSE expires_at END, \
           updated_at = ?12 \
         WHERE id = ?13",
    )
    .bind(&title)
    .bind(!description.is_absent())
    .bind(description.value())
    .bind(priority.value())
    .bind(!role_slug.is_absent())
    .bind(role_slug.value())
    .bind(!mission_id.is_absent())
    .bind(mission_id.clone().value())
    .bind(
        depends_on
            .value()
            .map(|d| serde_json::to_string(&d))
            .transpose()?,
    )
    .bind(status.as_ref().map(TaskStatus::as_str))
    .bind(clear_claim)
    .bind(&at)
    .bind(&id)
    .execute(&mut *tx)
    .await?;
    let updated = find_task(&mut tx, &caller.team_id, &id).await?;
    if let Some(m) = &updated.mission_id {
        let reopens = status.as_ref().is_some_and(|s| !s.is_terminal())
            || matches!(mission_id, Field::Set(_));
        if reopens {
            reopen_mission(&mut tx, m, &at).await?;
        }
    }
    tx.commit().await?;
    Ok(Json(updated.to_task()))
}
