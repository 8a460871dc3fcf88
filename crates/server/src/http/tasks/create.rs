//! `POST /api/tasks`: a task filed through the API.

use crate::body::JsonObject;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::flows::task_checks::resolve_workspace;
use crate::flows::task_edits::file;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::find_mission;
use crate::store::tasks::{find_task, NewTask};
use crate::store::workers::find_worker;
use axum::extract::State;
use axum::Json;
use buildd_core::{class_for_new_task, OutputRequirement};
use serde_json::{json, Map, Value};

fn output_requirement(value: &str) -> ApiResult<OutputRequirement> {
    OutputRequirement::known(value).ok_or_else(|| {
        ApiError::bad(format!(
            "outputRequirement must be one of: {}",
            OutputRequirement::list()
        ))
    })
}

/// Where a new task says it came from; Buildd keeps these and calls anything else `api`.
const CREATION_SOURCES: [&str; 6] = ["dashboard", "api", "mcp", "github", "local_ui", "schedule"];

/// `POST /api/tasks`: any key of the team, as in Buildd (runners and agents file work with
/// worker keys); an agent names its worker in `createdByWorkerId`, and its task becomes the
/// new task's parent unless `parentTaskId` says otherwise.
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> ApiResult<Json<Value>> {
    let request = Request::read(&body)?;
    state
        .db
        .transact(caller.lane(), move |tx| {
            Box::pin(async move {
                let task = request.into_task(tx, &caller).await?;
                file(tx, &task).await?;
                let row = find_task(tx, &caller.team_id, &task.id).await?;
                let mut out = serde_json::to_value(row.to_task())?;
                out["subjectIntakeOutcome"] = json!({"action": "created", "taskId": task.id});
                Ok(Json(out))
            })
        })
        .await
}

/// A POST body as read, before its workspace, mission and parent are looked up.
struct Request {
    title: String,
    description: Option<String>,
    priority: i64,
    mission_id: Option<String>,
    parent_task_id: Option<String>,
    created_by_worker: Option<String>,
    source: String,
    depends_on: Vec<String>,
    role_slug: Option<String>,
    category: Option<String>,
    requires_review: bool,
    context: Map<String, Value>,
    requirement: Option<OutputRequirement>,
    workspace: Option<String>,
}

impl Request {
    /// Reads the body field by field, in the order refusals name them.
    fn read(body: &JsonObject) -> ApiResult<Self> {
        let title = body.required_string("title", "Title is required")?;
        if let Some(mode) = body.string("mode")?.value() {
            if mode != "execution" {
                return Err(ApiError::bad(
                    "mode must be \"execution\": planning tasks are opened by a mission's organizer",
                ));
            }
        }
        Ok(Self {
            title,
            description: body.string("description")?.value(),
            priority: body.integer("priority")?.value().unwrap_or(0),
            mission_id: body.string("missionId")?.value(),
            parent_task_id: body.string("parentTaskId")?.value(),
            created_by_worker: body.string("createdByWorkerId")?.value(),
            source: body
                .string("creationSource")?
                .value()
                .filter(|s| CREATION_SOURCES.contains(&s.as_str()))
                .unwrap_or_else(|| "api".into()),
            depends_on: body.string_array("dependsOn")?.value().unwrap_or_default(),
            role_slug: body.string("roleSlug")?.value().filter(|s| !s.is_empty()),
            category: body.string("category")?.value(),
            requires_review: body.boolean("requiresReview")?.value().unwrap_or(false),
            context: body.object("context")?.value().unwrap_or_default(),
            requirement: match body.string("outputRequirement")?.value() {
                Some(r) => Some(output_requirement(&r)?),
                None => None,
            },
            workspace: body.string("workspaceId")?.value(),
        })
    }

    /// The task to write: its workspace resolved, its mission's default output, and its
    /// parent checked (an agent's own task when it names its worker).
    async fn into_task(self, tx: &mut Tx, caller: &Caller) -> ApiResult<NewTask> {
        let workspace = resolve_workspace(tx, &caller.team_id, self.workspace).await?;
        let mission = match &self.mission_id {
            Some(m) => Some(find_mission(tx, &caller.team_id, m).await?),
            None => None,
        };
        let mut parent_task_id = self.parent_task_id;
        if let Some(worker) = &self.created_by_worker {
            let worker = find_worker(tx, &caller.team_id, worker)
                .await
                .ok()
                .filter(|w| w.account_id.as_deref() == Some(caller.account_id.as_str()))
                .ok_or_else(|| {
                    ApiError::bad("createdByWorkerId must be a worker of this key's account")
                })?;
            parent_task_id = parent_task_id.or(Some(worker.task_id));
        }
        if let Some(parent) = &parent_task_id {
            find_task(tx, &caller.team_id, parent)
                .await
                .map_err(|_| ApiError::bad("parentTaskId references an unknown task"))?;
        }
        let output_requirement = self
            .requirement
            .map(|r| r.as_str().to_string())
            .or_else(|| mission.and_then(|m| m.default_output_requirement))
            .unwrap_or_else(|| "auto".into());
        Ok(NewTask {
            mission_id: self.mission_id,
            parent_task_id,
            description: self.description,
            context: Value::Object(self.context),
            priority: self.priority,
            task_class: class_for_new_task(&self.title),
            created_by_account_id: Some(caller.account_id.clone()),
            created_by_worker_id: self.created_by_worker,
            creation_source: Some(self.source),
            category: self.category,
            role_slug: self.role_slug,
            depends_on: self.depends_on,
            requires_review: self.requires_review,
            output_requirement,
            ..NewTask::new(&caller.team_id, &workspace.id, self.title)
        })
    }
}
