//! How long a top-level string of a request may be, by its key: names and labels are
//! short, addresses and ids bounded, written text long (a description may hold a whole
//! brief). One table for every request, so a field keeps its limit wherever it appears.

use super::FieldError;
use serde_json::{Map, Value};

/// The limit of `key`, when it is a string field of some request here.
pub fn text_limit(key: &str) -> Option<usize> {
    Some(match key {
        "title" | "name" | "runner" | "conclusion" | "status" | "type" | "mode" | "reason" => 500,
        "currentAction" | "defaultChoice" | "nextSuggestion" | "answer" => 2_000,
        "prUrl" | "repoUrl" | "localUiUrl" | "repo" | "localPath" | "head" | "base"
        | "headBranch" | "baseBranch" | "defaultBranch" | "headSha" | "lastCommitSha"
        | "detailsUrl" => 2_000,
        "description" | "body" => 100_000,
        "summary" | "error" | "feedback" | "message" | "heartbeatChecklist" | "bodyText" => 20_000,
        // Ids, enums, time zones and the like.
        "id"
        | "missionId"
        | "workspaceId"
        | "taskId"
        | "workerId"
        | "parentTaskId"
        | "createdByWorkerId"
        | "creationSource"
        | "roleSlug"
        | "category"
        | "outputRequirement"
        | "orchestrationMode"
        | "authorType"
        | "replyTo"
        | "activeHoursTimezone"
        | "priority"
        | "accessMode"
        | "dataClass"
        | "startAt"
        | "cronExpression"
        | "startMode" => 500,
        _ => return None,
    })
}

/// Refuses the first top-level string of `body` longer than its key's limit.
pub fn check_text(body: &Map<String, Value>) -> Result<(), FieldError> {
    for (key, value) in body {
        let (Value::String(text), Some(limit)) = (value, text_limit(key)) else {
            continue;
        };
        let count = text.chars().count();
        if count > limit {
            return Err(FieldError::new(
                key,
                format!("{key} must be at most {limit} characters (it has {count})"),
            ));
        }
    }
    Ok(())
}
