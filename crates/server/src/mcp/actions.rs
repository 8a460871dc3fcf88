//! `buildd action=…`: the level gate, the write fence, and the dispatch to each action.

use super::admin_actions as admin;
use super::context::Context;
use super::reply::{field, Params, Reply};
use super::task_actions as tasks;
use super::tools;
use super::worker_actions as worker;
use buildd_core::{AccountLevel, TaskStatus, WorkerStatus};
use serde_json::{json, Map, Value};

/// Actions refused once the connection's task was cancelled or failed from outside, so an
/// agent that missed the abort files no more work.
const FENCED: &[&str] = &["create_task", "complete_task", "create_pr", "emit_event"];

pub async fn call(ctx: &Context, action: &str, params: &Map<String, Value>) -> Reply {
    if !tools::is_provided(action) {
        return Reply::error(format!(
            "Error: action '{action}' is not provided by this server. Available to this key: {}",
            tools::offered(&ctx.level).join(", ")
        ));
    }
    let required = tools::required_level(action);
    if !tools::allows(&ctx.level, &required) {
        return refused(ctx, action, &required);
    }
    if let Some(fenced) = fence(ctx, action).await {
        return fenced;
    }
    let params = Params(params);
    let step = match action {
        "list_tasks" => tasks::list_tasks(ctx, &params).await,
        "get_task" => tasks::get_task(ctx, &params).await,
        "create_task" => tasks::create_task(ctx, &params).await,
        "update_task" => tasks::update_task(ctx, &params).await,
        "get_task_messages" => tasks::get_task_messages(ctx, &params).await,
        "claim_task" => worker::claim_task(ctx, &params).await,
        "update_progress" => worker::update_progress(ctx, &params).await,
        "complete_task" => worker::complete_task(ctx, &params).await,
        "create_pr" => worker::create_pr(ctx, &params).await,
        "post_note" => worker::post_note(ctx, &params).await,
        "emit_event" => worker::emit_event(ctx, &params).await,
        "query_events" => worker::query_events(ctx, &params).await,
        "approve_plan" => admin::approve_plan(ctx, &params).await,
        "reject_plan" => admin::reject_plan(ctx, &params).await,
        "manage_missions" => admin::manage_missions(ctx, &params).await,
        "send_agent_message" => admin::send_agent_message(ctx, &params).await,
        _ => unreachable!("every provided action is dispatched"),
    };
    step.unwrap_or_else(|refusal| refusal)
}

/// A key below the action's level: a structured `forbidden` for admin actions (so an agent
/// tells a missing privilege from an expired key), a sentence for a trigger key.
fn refused(ctx: &Context, action: &str, required: &AccountLevel) -> Reply {
    if *required == AccountLevel::Admin {
        return Reply::error(
            json!({
                "error": "forbidden",
                "reason": format!("action '{action}' requires admin token level"),
                "tokenLevel": ctx.level.as_str(),
                "requiredLevel": "admin",
            })
            .to_string(),
        );
    }
    Reply::error(format!(
        "Action '{action}' requires a worker or admin token. Trigger tokens can only use: {}",
        tools::offered(&AccountLevel::Trigger).join(", ")
    ))
}

async fn fence(ctx: &Context, action: &str) -> Option<Reply> {
    if !FENCED.contains(&action) {
        return None;
    }
    // A failed lookup lets the call through: the API checks the state itself.
    let worker = ctx.own_worker().await?;
    let task = &worker["task"];
    let status = field(task, "status");
    if !matches!(
        TaskStatus::parse(status),
        TaskStatus::Cancelled | TaskStatus::Failed
    ) {
        return None;
    }
    // A worker that already finished, or already opened its PR, may still complete.
    let delivered = WorkerStatus::parse(field(&worker, "status")) == WorkerStatus::Completed
        || !worker["prNumber"].is_null();
    if action == "complete_task" && delivered {
        return None;
    }
    Some(Reply::error(format!(
        "**TASK {}: Action '{action}' blocked.** Your task ({}) is in state '{status}' — it was \
         terminated externally. Stop working on this task immediately. Do not create tasks, \
         PRs, or artifacts. To record that the worker stopped, call complete_task with an \
         error param.",
        status.to_uppercase(),
        field(task, "id"),
    )))
}
