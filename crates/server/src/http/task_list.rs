//! `GET /api/tasks`: filters (`missionId`, `status`, `workspaceId`) and pagination.

use super::caller::Caller;
use super::paging;
use super::state::AppState;
use crate::error::{ApiError, ApiResult};
use crate::store::tasks::{TaskRow, TASK_COLUMNS, TASK_FROM};
use crate::store::workspaces::team_workspaces;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use buildd_core::{
    description_preview, TaskList, TaskPage, TaskPageItem, TaskStatus, TaskWorkspace,
};
use serde_json::json;
use std::collections::HashMap;

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

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let statuses = match query.get("status") {
        Some(s) => Some(status_filter(s)?),
        None => None,
    };
    let limit = paging::limit(&query, 200)?;
    let offset = paging::offset(&query)?;
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
