//! `GET /api/tasks`: filters (`missionId`, `status`, `workspaceId`) and pagination.

use crate::body::Params;
use crate::error::ApiResult;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::tasks::list::{self, TaskFilter};
use crate::store::workspaces::team_workspaces;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use buildd_core::requests::queries::TaskListQuery;
use buildd_core::{description_preview, TaskList, TaskPage, TaskPageItem, TaskWorkspace};
use serde_json::json;
use std::collections::HashMap;

pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Params(query): Params<TaskListQuery>,
) -> ApiResult<Response> {
    let statuses: Option<Vec<String>> = query
        .statuses()?
        .map(|s| s.iter().map(|s| s.as_str().to_string()).collect());
    let (limit, offset) = (query.limit, query.offset.unwrap_or(0));
    let filter = TaskFilter {
        team_id: &caller.team_id,
        mission_id: query.mission_id.as_deref(),
        workspace_id: query.workspace_id.as_deref(),
        statuses: statuses.as_deref(),
    };

    let mut tx = state.db.read().await?;
    let Some(limit) = limit else {
        let rows = list::newest(&mut tx, &filter).await?;
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

    let rows = list::page(&mut tx, &filter, limit, offset).await?;
    let (total, pending) = list::counts(&mut tx, &filter).await?;
    let tasks: Vec<TaskPageItem> = rows
        .iter()
        .map(|t| TaskPageItem {
            id: t.id.clone(),
            workspace_id: t.workspace_id.clone(),
            title: t.title.clone(),
            status: t.status(),
            priority: t.priority,
            category: t.category(),
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
