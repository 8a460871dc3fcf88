//! Actions on tasks any key of the team may call: list, read, file, edit, read messages.

use super::context::Context;
use super::reply::{field, priority, segment, Params, Reply, Step};
use buildd_core::{DeliveryState, MessageKind, TaskStatus};
use serde_json::{json, Value};

/// `list_tasks`: five active tasks at a time, pending first as the API sorts them.
pub async fn list_tasks(ctx: &Context, params: &Params<'_>) -> Step {
    const PAGE: u64 = 5;
    let offset = params.get("offset").and_then(Value::as_u64).unwrap_or(0);
    let mut path = format!("/api/tasks?status=active&limit={PAGE}&offset={offset}");
    if let Some(workspace) = ctx.workspace_id(params.text("workspaceId")).await? {
        path.push_str(&format!("&workspaceId={}", segment(&workspace)));
    }
    let page = ctx.api.get(&path).await?;
    let tasks = page["tasks"].as_array().cloned().unwrap_or_default();
    if tasks.is_empty() && offset == 0 {
        return Ok(Reply::ok("No active tasks found."));
    }
    let total = page["total"].as_u64().unwrap_or(tasks.len() as u64);
    let pending = page["pendingCount"].as_u64().unwrap_or(0);
    let lines = tasks
        .iter()
        .map(|t| {
            let status = match field(t, "status") {
                "pending" => String::new(),
                other => format!(" [{other}]"),
            };
            let preview = t["descriptionPreview"]
                .as_str()
                .filter(|s| !s.is_empty())
                .unwrap_or("No description");
            format!(
                "- {}{status} (id: {})\n  {preview}",
                field(t, "title"),
                field(t, "id")
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    let more = if page["hasMore"].as_bool().unwrap_or(false) {
        format!("\n\nCall with offset={} to see more.", offset + PAGE)
    } else {
        String::new()
    };
    Ok(Reply::ok(format!(
        "{total} active task{} ({pending} pending, {} in progress):\n\n{lines}{more}\n\nTo \
         claim a task, call action=claim_task (it assigns the highest-priority pending task).",
        if total == 1 { "" } else { "s" },
        total.saturating_sub(pending)
    )))
}

/// `get_task`: the task, its result, its mission and its workers.
pub async fn get_task(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("taskId")?;
    let task = ctx
        .api
        .get(&format!("/api/tasks/{}?include=workers", segment(id)))
        .await?;
    let mut lines = vec![
        format!(
            "**Task:** {} ({})",
            field(&task, "title"),
            field(&task, "id")
        ),
        format!(
            "**Status:** {} (priority {})",
            field(&task, "status"),
            task["priority"].as_i64().unwrap_or(0)
        ),
    ];
    if let Some(mission) = task.get("mission").filter(|m| m.is_object()) {
        lines.push(format!(
            "**Mission:** {} ({}) — {}",
            field(mission, "title"),
            field(mission, "id"),
            field(mission, "status")
        ));
    }
    if let Some(description) = task["description"].as_str().filter(|d| !d.is_empty()) {
        let short: String = description.chars().take(400).collect();
        let cut = if short.len() < description.len() {
            "…"
        } else {
            ""
        };
        lines.extend(["".into(), "## Description".into(), format!("{short}{cut}")]);
    }
    let result = &task["result"];
    if let Some(summary) = result["summary"].as_str() {
        lines.extend([
            "".into(),
            "## Result".into(),
            format!("**Summary:** {summary}"),
        ]);
        if let Some(pr) = result["prUrl"].as_str() {
            lines.push(format!("**PR:** {pr}"));
        }
    }
    let workers = task["workers"].as_array().cloned().unwrap_or_default();
    if !workers.is_empty() {
        lines.extend(["".into(), format!("## Workers ({})", workers.len())]);
        for w in &workers {
            let mut line = format!("- **{}** — {}", field(w, "id"), field(w, "status"));
            if let Some(branch) = w["branch"].as_str() {
                line.push_str(&format!(" on `{branch}`"));
            }
            if let Some(pr) = w["prUrl"].as_str() {
                line.push_str(&format!("\n  PR: {pr}"));
            }
            if let Some(error) = w["error"].as_str() {
                line.push_str(&format!("\n  Error: {error}"));
            }
            lines.push(line);
        }
    } else if TaskStatus::parse(field(&task, "status")) == TaskStatus::Pending {
        lines.push("\nTask is pending — not yet claimed by a worker.".into());
    }
    Ok(Reply::ok(lines.join("\n")))
}

/// The `create_task` params the API takes; anything else is refused by name.
const CREATE_PARAMS: &[&str] = &[
    "title",
    "description",
    "workspaceId",
    "priority",
    "category",
    "outputRequirement",
    "missionId",
    "parentTaskId",
    "dependsOn",
    "context",
];

/// `create_task`: filed by this key, under the connection's worker when there is one.
pub async fn create_task(ctx: &Context, params: &Params<'_>) -> Step {
    let unknown: Vec<&str> = params
        .0
        .keys()
        .map(String::as_str)
        .filter(|k| !CREATE_PARAMS.contains(k))
        .collect();
    if !unknown.is_empty() {
        return Err(Reply::error(format!(
            "Error: Unknown create_task parameter(s): {}. Accepted: {}",
            unknown.join(", "),
            CREATE_PARAMS.join(", ")
        )));
    }
    let title = params.required("title")?;
    let description = params.required("description")?;
    let workspace = ctx
        .workspace_id(params.text("workspaceId"))
        .await?
        .ok_or_else(|| {
            Reply::error("Error: Could not determine workspace. Provide workspaceId.")
        })?;
    let mut body = json!({
        "workspaceId": workspace,
        "title": title,
        "description": description,
        "priority": priority(params.get("priority")).unwrap_or(5),
        "creationSource": "mcp",
    });
    params.copy_into(
        &mut body,
        &[
            "category",
            "outputRequirement",
            "missionId",
            "parentTaskId",
            "dependsOn",
            "context",
        ],
    );
    if let Some(worker) = &ctx.worker_id {
        body["createdByWorkerId"] = json!(worker);
    }
    let created = ctx.api.post("/api/tasks", body).await?;
    let task = if created["task"].is_object() {
        &created["task"]
    } else {
        &created
    };
    Ok(Reply::ok(task_line("created", task)))
}

/// `update_task`: title, description, priority or status.
pub async fn update_task(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("taskId")?;
    let mut body = json!({});
    params.copy_into(&mut body, &["title", "description", "status"]);
    if let Some(p) = priority(params.get("priority")) {
        body["priority"] = json!(p);
    }
    if body.as_object().is_some_and(|o| o.is_empty()) {
        return Err(Reply::error(
            "Error: At least one field (title, description, priority, status) must be provided",
        ));
    }
    let task = ctx
        .api
        .patch(&format!("/api/tasks/{}", segment(id)), body)
        .await?;
    Ok(Reply::ok(task_line("updated", &task)))
}

/// "Task created: "Fix login" (ID: …)", with its status and priority.
fn task_line(what: &str, task: &Value) -> String {
    format!(
        "Task {what}: \"{}\" (ID: {})\nStatus: {}\nPriority: {}",
        field(task, "title"),
        field(task, "id"),
        field(task, "status"),
        task["priority"].as_i64().unwrap_or(0)
    )
}

/// `get_task_messages`: the instruction history of the task's newest worker.
pub async fn get_task_messages(ctx: &Context, params: &Params<'_>) -> Step {
    let id = params.required("taskId")?;
    let answer = ctx
        .api
        .get(&format!("/api/tasks/{}/messages", segment(id)))
        .await?;
    let messages = answer["messages"].as_array().cloned().unwrap_or_default();
    if messages.is_empty() {
        return Ok(Reply::ok(format!(
            "No messages for task {id}. Messages appear when instructions are sent to the \
             running agent."
        )));
    }
    let lines = messages
        .iter()
        .map(|m| {
            let arrow = if MessageKind::parse(field(m, "type")) == MessageKind::Instruction {
                "→ [human→agent]"
            } else {
                "← [agent→human]"
            };
            let queued = DeliveryState::parse(field(m, "deliveryState")) == DeliveryState::Pending;
            let pending = if queued { " (undelivered)" } else { "" };
            format!("{arrow}{pending}\n  {}", field(m, "message"))
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    Ok(Reply::ok(format!(
        "{} message(s) for task {id}:\n\n{lines}",
        messages.len()
    )))
}
