//! The path of a claimed task: claim, report progress, open a PR, post notes and events,
//! complete or fail. Each is one call of the worker API, answered in words for the agent.

use super::context::Context;
use super::reply::{field, segment, Params, Reply, Step};
use axum::http::StatusCode;
use buildd_core::{AuthorType, NoteKind};
use serde_json::{json, Value};

/// Worker and task states in which a connection's assignment is still live.
const LIVE_WORKER: &[&str] = &["idle", "running", "starting", "waiting_input"];
const LIVE_TASK: &[&str] = &["assigned", "in_progress"];

/// `claim_task`: the connection's live assignment if it has one (an agent the runner
/// started already holds its task), else a fresh claim.
pub async fn claim_task(ctx: &Context, params: &Params<'_>) -> Step {
    if let Some(worker) = ctx.own_worker().await {
        if LIVE_WORKER.contains(&field(&worker, "status"))
            && LIVE_TASK.contains(&field(&worker["task"], "status"))
        {
            return Ok(Reply::ok(format!(
                "Current assignment already active (no new task claimed):\n\n{}\n\nContinue \
                 using this worker ID for progress reporting and completion.",
                describe_claim(&worker)
            )));
        }
    }
    let mut body = json!({
        "maxTasks": params.get("maxTasks").cloned().unwrap_or(json!(1)),
        "runner": "mcp",
    });
    if let Some(workspace) = ctx.workspace_id(params.text("workspaceId")).await? {
        body["workspaceId"] = json!(workspace);
    }
    let answer = ctx.api.post("/api/workers/claim", body).await?;
    let workers = answer["workers"].as_array().cloned().unwrap_or_default();
    if workers.is_empty() {
        return Ok(Reply::ok(
            "No tasks available to claim. All tasks may be assigned or completed.",
        ));
    }
    let claimed = workers
        .iter()
        .map(describe_claim)
        .collect::<Vec<_>>()
        .join("\n\n---\n\n");
    Ok(Reply::ok(format!(
        "Claimed {} task(s):\n\n{claimed}\n\nUse the worker ID to report progress and \
         completion.",
        workers.len()
    )))
}

fn describe_claim(worker: &Value) -> String {
    let task = &worker["task"];
    format!(
        "**Worker ID:** {}\n**Task:** {}\n**Branch:** {}\n**Description:** {}",
        field(worker, "id"),
        field(task, "title"),
        worker["branch"].as_str().unwrap_or("Not set"),
        task["description"]
            .as_str()
            .filter(|d| !d.is_empty())
            .unwrap_or("No description")
    )
}

/// `update_progress`: a running report; instructions and replies waiting for the worker
/// come back with it.
pub async fn update_progress(ctx: &Context, params: &Params<'_>) -> Step {
    let worker = ctx.worker_id(params.text("workerId"))?;
    let progress = params.get("progress").cloned().unwrap_or(json!(0));
    let now = chrono::Utc::now().timestamp_millis();
    let mut milestones = Vec::new();
    for (kind, key) in [("plan", "plan"), ("status", "message")] {
        if let Some(label) = params.text(key) {
            milestones.push(json!({"type": kind, "label": label, "progress": progress, "ts": now}));
        }
    }
    let mut body = json!({"status": "running", "progress": progress});
    if !milestones.is_empty() {
        body["appendMilestones"] = Value::Array(milestones);
    }
    if let Some(message) = params.text("message") {
        body["currentAction"] = json!(message);
    }
    params.copy_into(
        &mut body,
        &[
            "inputTokens",
            "outputTokens",
            "lastCommitSha",
            "commitCount",
            "filesChanged",
            "linesAdded",
            "linesRemoved",
        ],
    );
    let answer =
        match ctx
            .api
            .patch(&format!("/api/workers/{}", segment(&worker)), body)
            .await
        {
            Ok(answer) => answer,
            Err(refusal) if refusal.status == StatusCode::CONFLICT => return Err(Reply::error(
                "**ABORT: Your worker has been terminated.** The task may have been reassigned \
                 or cancelled. STOP working on this task immediately - do not push, commit, or \
                 create PRs.",
            )),
            Err(refusal) => return Err(refusal.into()),
        };
    let mut text = format!("Progress updated: {progress}%");
    if let Some(message) = params.text("message") {
        text.push_str(&format!(" - {message}"));
    }
    if let Some(instructions) = answer["instructions"].as_str() {
        text.push_str(&format!("\n\n**ADMIN INSTRUCTION:** {instructions}"));
    }
    Ok(Reply::ok(text))
}

/// `complete_task`: done with a summary (a planning task: its plan), or failed with `error`.
pub async fn complete_task(ctx: &Context, params: &Params<'_>) -> Step {
    let worker = ctx.worker_id(params.text("workerId"))?;
    let path = format!("/api/workers/{}", segment(&worker));
    if let Some(error) = params.text("error") {
        ctx.api
            .patch(&path, json!({"status": "failed", "error": error}))
            .await?;
        return Ok(Reply::ok(format!("Task marked as failed: {error}")));
    }
    let mut body = json!({"status": "completed"});
    params.copy_into(
        &mut body,
        &["summary", "structuredOutput", "nextSuggestion"],
    );
    match ctx.api.patch(&path, body).await {
        Ok(_) => {}
        Err(refusal) if refusal.status == StatusCode::CONFLICT => {
            return Err(Reply::error(
                "**WARNING: Worker was already terminated.** The task may have been reassigned. \
                 Your work may have been superseded by another worker.",
            ))
        }
        Err(refusal) if refusal.status == StatusCode::BAD_REQUEST => {
            let error = field(&refusal.body, "error").to_string();
            let next = match refusal.body["hint"].as_str() {
                Some(hint) => format!("Please use `{hint}` before calling complete_task again."),
                None => "Fix the fields it names and call complete_task again.".into(),
            };
            return Err(Reply::error(format!(
                "**Cannot complete task:** {error}\n\n{next}"
            )));
        }
        Err(refusal) => return Err(refusal.into()),
    }
    let summary = params
        .text("summary")
        .map(|s| format!("\n\nSummary: {s}"))
        .unwrap_or_default();
    Ok(Reply::ok(format!("Task completed successfully!{summary}")))
}

/// `create_pr`: records the branch's pull request on the worker and its task.
pub async fn create_pr(ctx: &Context, params: &Params<'_>) -> Step {
    let worker = ctx.worker_id(params.text("workerId"))?;
    let title = params.required("title")?;
    let head = params.required("head")?;
    let mut body = json!({"workerId": worker, "title": title, "head": head});
    params.copy_into(&mut body, &["body", "base", "draft", "prUrl"]);
    let answer = ctx.api.post("/api/github/pr", body).await?;
    let pr = &answer["pr"];
    Ok(Reply::ok(format!(
        "Pull request created!\n\n**PR #{}:** {}\n**URL:** {}\n**State:** {}",
        pr["number"],
        field(pr, "title"),
        field(pr, "url"),
        field(pr, "state")
    )))
}

/// `post_note`: to the mission's feed, or to the task when it has no mission.
pub async fn post_note(ctx: &Context, params: &Params<'_>) -> Step {
    let kind = params.text("type");
    let missing: Vec<&str> = [("type", kind), ("title", params.text("title"))]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| *k)
        .collect();
    if !missing.is_empty() {
        return Err(Reply::error(format!(
            "Error: post_note missing required parameter(s): {}. type must be one of: {}.",
            missing.join(", "),
            NoteKind::names(NoteKind::AGENT)
        )));
    }
    let kind = NoteKind::parse(kind.unwrap_or_default());
    if !NoteKind::AGENT.contains(&kind) {
        return Err(Reply::error(format!(
            "Error: Invalid type. Must be one of: {}",
            NoteKind::names(NoteKind::AGENT)
        )));
    }
    let title = params.required("title")?;
    let worker_id = ctx.worker_id(params.text("workerId"))?;
    let worker = ctx
        .api
        .get(&format!("/api/workers/{}", segment(&worker_id)))
        .await?;
    let task = field(&worker, "taskId").to_string();
    let mission = params
        .text("missionId")
        .or_else(|| worker["task"]["missionId"].as_str())
        .map(str::to_string);
    let mut body = json!({
        "type": kind,
        "title": title,
        "authorType": AuthorType::Agent,
        "taskId": task,
        "workerId": worker_id,
        "status": kind.initial_status(),
    });
    if let Some(text) = params.text("body") {
        body["bodyText"] = json!(text);
    }
    if let Some(choice) = params.text("defaultChoice") {
        body["defaultChoice"] = json!(choice);
    }
    let path = match &mission {
        Some(m) => format!("/api/missions/{}/notes", segment(m)),
        None => format!("/api/tasks/{}/notes", segment(&task)),
    };
    ctx.api.post(&path, body).await?;
    let mut text = format!("Note posted: \"{title}\" ({kind})");
    if kind == NoteKind::Question {
        text.push_str(&format!(
            "\nDefault choice: {}\nThe reply will be delivered on your next update_progress \
             call.",
            params.text("defaultChoice").unwrap_or("none")
        ));
    }
    Ok(Reply::ok(text))
}

/// `emit_event`: one milestone on the worker's record.
pub async fn emit_event(ctx: &Context, params: &Params<'_>) -> Step {
    let worker = ctx.worker_id(params.text("workerId"))?;
    let kind = params.required("type")?;
    let label = params.required("label")?;
    let mut event =
        json!({"type": kind, "label": label, "ts": chrono::Utc::now().timestamp_millis()});
    if let Some(metadata) = params.get("metadata").filter(|m| m.is_object()) {
        event["metadata"] = metadata.clone();
    }
    ctx.api
        .patch(
            &format!("/api/workers/{}", segment(&worker)),
            json!({"appendMilestones": [event]}),
        )
        .await?;
    Ok(Reply::ok(format!("Event emitted: [{kind}] {label}")))
}

/// `query_events`: the worker's milestones, of one type when asked.
pub async fn query_events(ctx: &Context, params: &Params<'_>) -> Step {
    let worker = ctx.worker_id(params.text("workerId"))?;
    let answer = ctx
        .api
        .get(&format!("/api/workers/{}", segment(&worker)))
        .await?;
    let wanted = params.text("type");
    let events: Vec<String> = answer["milestones"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| wanted.is_none_or(|w| m["type"].as_str() == Some(w)))
        .map(|m| {
            let when = m["ts"]
                .as_i64()
                .and_then(chrono::DateTime::from_timestamp_millis)
                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
                .unwrap_or_default();
            format!("- [{}] {} ({when})", field(m, "type"), field(m, "label"))
        })
        .collect();
    if events.is_empty() {
        let of = wanted
            .map(|w| format!(" of type \"{w}\""))
            .unwrap_or_default();
        return Ok(Reply::ok(format!("No events found{of}.")));
    }
    Ok(Reply::ok(format!(
        "{} event(s):\n\n{}",
        events.len(),
        events.join("\n")
    )))
}
