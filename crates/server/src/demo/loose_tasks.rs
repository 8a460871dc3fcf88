//! Demo work outside any mission, as an API client, a schedule or another tool files it:
//! one the scripted worker runs long (its timeline moves for a few minutes), one whose agent
//! stops to ask a person a question, and one already done.

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::tasks::{self, NewTask};
use buildd_core::TaskStatus;
use serde_json::json;

/// What the scripted worker does with a demo task, by its `context.demo`.
pub const LONG_RUN: &str = "long";
pub const ASKS: &str = "asks";

pub async fn seed(tx: &mut Tx, team: &str, workspace: &str) -> ApiResult<()> {
    let long = NewTask {
        description: Some("Find where the 14-minute build spends its time and write it up.".into()),
        context: json!({"demo": LONG_RUN}),
        creation_source: Some("api".into()),
        output_requirement: "none".into(),
        ..NewTask::new(team, workspace, "Profile the slow CI build")
    };
    let asks = NewTask {
        description: Some("Put a cache in front of the product search.".into()),
        context: json!({"demo": ASKS}),
        creation_source: Some("mcp".into()),
        output_requirement: "none".into(),
        ..NewTask::new(team, workspace, "Cache the product search")
    };
    let done = NewTask {
        description: Some("Rotate the staging TLS certificate before it expires.".into()),
        creation_source: Some("schedule".into()),
        status: TaskStatus::Completed,
        result: Some(json!({"summary": "Rotated; the new certificate runs to next December."})),
        ..NewTask::new(team, workspace, "Rotate the staging certificate")
    };
    for task in [long, asks, done] {
        tasks::insert(tx, &task).await?;
    }
    Ok(())
}
