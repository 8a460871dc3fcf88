//! The `buildd` tool as this server offers it: which actions each key level gets, and the
//! schema an agent reads. Only actions this server carries out are offered; the rest of
//! Buildd's list gets a plain "not provided" when called.

use buildd_core::AccountLevel;
use serde_json::{json, Value};

/// Actions a trigger key may call.
const TRIGGER: &[&str] = &["list_tasks", "get_task", "create_task", "get_task_messages"];

/// Added for a worker key: the path of a claimed task.
const WORKER: &[&str] = &[
    "claim_task",
    "update_progress",
    "complete_task",
    "create_pr",
    "update_task",
    "post_note",
    "emit_event",
    "query_events",
];

/// Added for an admin key: plan review, missions and steering.
const ADMIN: &[&str] = &[
    "approve_plan",
    "reject_plan",
    "manage_missions",
    "send_agent_message",
];

/// Every action of this server, for telling "not yours" from "not here".
pub fn is_provided(action: &str) -> bool {
    [TRIGGER, WORKER, ADMIN]
        .iter()
        .any(|set| set.contains(&action))
}

/// The lowest key level that may call `action` (only meaningful when provided).
pub fn required_level(action: &str) -> AccountLevel {
    if ADMIN.contains(&action) {
        AccountLevel::Admin
    } else if WORKER.contains(&action) {
        AccountLevel::Worker
    } else {
        AccountLevel::Trigger
    }
}

/// Whether `level` reaches `required`: trigger < worker < admin.
pub fn allows(level: &AccountLevel, required: &AccountLevel) -> bool {
    rank(level) >= rank(required)
}

fn rank(level: &AccountLevel) -> u8 {
    match level {
        AccountLevel::Admin => 2,
        AccountLevel::Worker => 1,
        _ => 0,
    }
}

/// The actions offered to `level`, in the order the schema lists them.
pub fn offered(level: &AccountLevel) -> Vec<&'static str> {
    let mut actions = TRIGGER.to_vec();
    if allows(level, &AccountLevel::Worker) {
        actions.extend_from_slice(WORKER);
    }
    if allows(level, &AccountLevel::Admin) {
        actions.extend_from_slice(ADMIN);
    }
    actions
}

fn params_of(action: &str) -> &'static str {
    match action {
        "list_tasks" => "{ offset?, workspaceId? } — the active tasks, five at a time",
        "get_task" => "{ taskId (required) } — a task's status, result, workers and mission",
        "create_task" => {
            "{ title (required), description (required), workspaceId?, priority? (0-10 or \
             lowest|low|medium|high|highest|urgent), category?, outputRequirement? \
             (pr_required|artifact_required|none|auto), missionId?, parentTaskId?, dependsOn?, \
             context? } — workspaceId accepts an id, a workspace name or a repo"
        }
        "get_task_messages" => "{ taskId (required) } — instructions sent to the task's agent",
        "claim_task" => {
            "{ maxTasks?, workspaceId? } — the current assignment when this connection names a \
             worker; otherwise the highest-priority pending task"
        }
        "update_progress" => {
            "{ workerId?, progress (required), message?, plan?, lastCommitSha?, commitCount?, \
             filesChanged?, linesAdded?, linesRemoved?, inputTokens?, outputTokens? } — answers \
             with any instruction or reply waiting for you"
        }
        "complete_task" => {
            "{ workerId?, summary?, structuredOutput?, nextSuggestion?, error? } — with error, \
             marks the task failed; a planning task returns its plan as structuredOutput"
        }
        "create_pr" => {
            "{ workerId?, title (required), head (required), base?, body?, draft?, prUrl? } — \
             records the pull request of your branch; a pr_required task completes only after it"
        }
        "update_task" => {
            "{ taskId (required), title?, description?, priority?, status? \
             (pending|completed|failed|cancelled) }"
        }
        "post_note" => {
            "{ type (required: decision|question|warning|suggestion|update), title (required), \
             body?, defaultChoice?, workerId?, missionId? } — to the mission's feed, or the \
             task's when it has no mission; a question's reply comes with a later \
             update_progress"
        }
        "emit_event" => "{ workerId?, type (required), label (required), metadata? }",
        "query_events" => "{ workerId?, type? } — the worker's recorded events",
        "approve_plan" => "{ taskId (required) } — creates the plan's tasks [admin]",
        "reject_plan" => {
            "{ taskId (required), feedback (required) } — the organizer plans again with it \
             [admin]"
        }
        "manage_missions" => {
            "{ action (required: list|get|create|update), missionId?, title?, description?, \
             workspaceId?, status?, priority?, orchestrationMode? (auto|manual), \
             requiresReview?, isHeartbeat?, heartbeatChecklist?, activeHoursStart?, \
             activeHoursEnd?, activeHoursTimezone? } [admin]"
        }
        "send_agent_message" => {
            "{ taskId (required), message (required) } — delivered with the agent's next \
             progress report [admin]"
        }
        _ => "{}",
    }
}

/// `tools/list`: the one `buildd` tool, with the actions `level` may call.
pub fn list(level: &AccountLevel) -> Value {
    let actions = offered(level);
    let params = actions
        .iter()
        .map(|action| format!("- {action}: {}", params_of(action)))
        .collect::<Vec<_>>()
        .join("\n");
    json!({"tools": [{
        "name": "buildd",
        "description": format!(
            "Task coordination tool. Available actions: {}. Use the action parameter to \
             select an operation and params for its arguments.",
            actions.join(", ")
        ),
        "annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true},
        "inputSchema": {
            "type": "object",
            "properties": {
                "action": {
                    "type": "string",
                    "description": format!("Action to perform: {}", actions.join(", ")),
                    "enum": actions,
                },
                "params": {
                    "type": "object",
                    "description": format!("Action-specific parameters. By action:\n{params}"),
                },
            },
            "required": ["action"],
        },
    }]})
}

/// What `initialize` tells the agent about working here.
pub fn instructions(level: &AccountLevel) -> String {
    format!(
        "Buildd coordinates AI coding agents. Tool: `buildd` (task actions). Token level: {} — \
         actions outside the tool's list need a higher-level key and answer \
         {{\"error\":\"forbidden\"}}.\n\nWorker workflow:\n1. `buildd` action=claim_task → check \
         out the returned branch → do the work.\n2. Report progress at milestones via \
         action=update_progress; it carries instructions and replies back to you.\n3. When the \
         task needs a pull request: push, then action=create_pr.\n4. action=complete_task with \
         a summary (a planning task: its plan as structuredOutput).",
        level.as_str()
    )
}
