//! Admin actions: plan review, missions, and steering a running agent.

use super::context::Context;
use super::reply::{field, priority, segment, Params, Reply, Step};
use serde_json::{json, Value};

/// `approve_plan`: the plan's steps become tasks.
pub async fn approve_plan(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("taskId")?;
    let answer = ctx
        .api
        .post(
            &format!("/api/tasks/{}/approve-plan", segment(id)),
            json!({}),
        )
        .await?;
    let ids: Vec<String> = answer["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|id| format!("- {id}"))
        .collect();
    Ok(Reply::ok(format!(
        "Plan approved! Created {} child task(s):\n{}",
        ids.len(),
        ids.join("\n")
    )))
}

/// `reject_plan`: the organizer plans again with the feedback.
pub async fn reject_plan(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("taskId")?;
    let feedback = params.required("feedback")?;
    let answer = ctx
        .api
        .post(
            &format!("/api/tasks/{}/reject-plan", segment(id)),
            json!({"feedback": feedback}),
        )
        .await?;
    Ok(Reply::ok(format!(
        "Plan rejected. Revised planning task created: {}",
        field(&answer, "taskId")
    )))
}

/// Mission fields `manage_missions` create and update pass on as given.
const MISSION_FIELDS: &[&str] = &[
    "title",
    "description",
    "status",
    "orchestrationMode",
    "requiresReview",
    "isHeartbeat",
    "heartbeatChecklist",
    "activeHoursStart",
    "activeHoursEnd",
    "activeHoursTimezone",
];

/// `manage_missions`: list, get, create, update.
pub async fn manage_missions(ctx: &Context, params: &Params<'_>) -> Step {
    match params.text("action") {
        Some("list") => list(ctx, params).await,
        Some("get") => get(ctx, params).await,
        Some("create") => create(ctx, params).await,
        Some("update") => update(ctx, params).await,
        Some(other) => Err(Reply::error(format!(
            "Error: manage_missions action '{other}' is not provided by this server; it \
             offers list, get, create, update"
        ))),
        None => Err(Reply::error(
            "Error: action is required (list, get, create, update)",
        )),
    }
}

async fn list(ctx: &Context, params: &Params<'_>) -> Step {
    let mut path = "/api/missions".to_string();
    if let Some(status) = params.text("status") {
        path.push_str(&format!("?status={}", segment(status)));
    }
    let answer = ctx.api.get(&path).await?;
    let missions = answer["missions"].as_array().cloned().unwrap_or_default();
    if missions.is_empty() {
        return Ok(Reply::ok("No missions found."));
    }
    let lines = missions
        .iter()
        .map(|m| {
            format!(
                "- **{}** [{}] — {}% ({}/{} tasks)\n  ID: {}",
                field(m, "title"),
                field(m, "status"),
                m["progress"].as_i64().unwrap_or(0),
                m["completedTasks"].as_i64().unwrap_or(0),
                m["totalTasks"].as_i64().unwrap_or(0),
                field(m, "id")
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    Ok(Reply::ok(format!(
        "{} mission(s):\n\n{lines}",
        missions.len()
    )))
}

async fn get(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("missionId")?;
    let m = ctx
        .api
        .get(&format!("/api/missions/{}", segment(id)))
        .await?;
    let tasks = m["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            format!(
                "  - [{}] {} ({})",
                field(t, "status"),
                field(t, "title"),
                field(t, "id")
            )
        })
        .collect::<Vec<_>>();
    let description = m["description"]
        .as_str()
        .filter(|d| !d.is_empty())
        .map(|d| format!("Description: {d}\n"))
        .unwrap_or_default();
    let linked = if tasks.is_empty() {
        "No linked tasks.".to_string()
    } else {
        format!("Linked tasks:\n{}", tasks.join("\n"))
    };
    Ok(Reply::ok(format!(
        "**{}** [{}]\nID: {}\nProgress: {}% ({}/{})\n{description}Orchestration: {}\n{linked}",
        field(&m, "title"),
        field(&m, "status"),
        field(&m, "id"),
        m["progress"].as_i64().unwrap_or(0),
        m["completedTasks"].as_i64().unwrap_or(0),
        m["totalTasks"].as_i64().unwrap_or(0),
        m["orchestrationMode"].as_str().unwrap_or("auto"),
    )))
}

/// The body of a create or update: the fields given, with the workspace resolved.
async fn mission_body(ctx: &Context, params: &Params<'_>) -> Result<Value, Reply> {
    let mut body = json!({});
    params.copy_into(&mut body, MISSION_FIELDS);
    if let Some(p) = priority(params.get("priority")) {
        body["priority"] = json!(p);
    }
    if let Some(named) = params.text("workspaceId") {
        body["workspaceId"] = json!(ctx.workspace_id(Some(named)).await?);
    }
    Ok(body)
}

async fn create(ctx: &Context, params: &Params<'_>) -> Step {
    params.required("title")?;
    let body = mission_body(ctx, params).await?;
    let m = ctx.api.post("/api/missions", body).await?;
    let organizer = m["organizerTask"]["id"]
        .as_str()
        .map(|id| format!("\nOrganizer task: {id}"))
        .unwrap_or_default();
    Ok(Reply::ok(format!(
        "Mission created: \"{}\" (ID: {})\nStatus: {}\nOrchestration: {}{organizer}",
        field(&m, "title"),
        field(&m, "id"),
        field(&m, "status"),
        m["orchestrationMode"].as_str().unwrap_or("auto"),
    )))
}

async fn update(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("missionId")?;
    let body = mission_body(ctx, params).await?;
    let m = ctx
        .api
        .patch(&format!("/api/missions/{}", segment(id)), body)
        .await?;
    Ok(Reply::ok(format!(
        "Mission updated: \"{}\" (ID: {})\nStatus: {}",
        field(&m, "title"),
        field(&m, "id"),
        field(&m, "status"),
    )))
}

/// `send_agent_message`: queued for the task's live worker, delivered with its next report.
pub async fn send_agent_message(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("taskId")?;
    let message = params.required("message")?;
    let task = ctx
        .api
        .get(&format!("/api/tasks/{}?include=workers", segment(id)))
        .await?;
    let workers = task["workers"].as_array().cloned().unwrap_or_default();
    let Some(worker) = workers
        .iter()
        .find(|w| !matches!(field(w, "status"), "completed" | "failed"))
    else {
        let why = if workers.is_empty() {
            "Task is still pending — not yet claimed by a worker."
        } else {
            "No active worker found for this task (all workers are in a terminal state)."
        };
        return Err(Reply::error(format!(
            "Error: Cannot send message: {why} (task status: {})",
            field(&task, "status")
        )));
    };
    let worker_id = field(worker, "id");
    ctx.api
        .post(
            &format!("/api/workers/{}/instruct", segment(worker_id)),
            json!({"message": message}),
        )
        .await?;
    Ok(Reply::ok(format!(
        "Message sent to worker {worker_id}.\nMessage queued for delivery on next worker \
         check-in."
    )))
}
