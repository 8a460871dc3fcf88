//! Reading a plan's earlier revisions, walked back through the tasks API.

use super::history::{steps_of, Earlier, History, Replaces, MAX_EARLIER};
use crate::api::{self, ApiError, Connection};

/// Reads the revisions before the one that `first` describes.
pub async fn read_history(c: Connection, first: Replaces) -> Result<History, ApiError> {
    let mut earlier: Vec<Earlier> = Vec::new();
    let mut next = Some(first);
    while let Some(link) = next.take() {
        if earlier.len() >= MAX_EARLIER || earlier.iter().any(|e| e.task_id == link.task_id) {
            break;
        }
        let task = api::task(&c, &link.task_id).await?;
        // This server also records the rejection on the plan it sent back.
        let rejection = task.context.as_ref().and_then(|c| c.plan_rejection.clone());
        let (rejected_at, rejected_with, rejected_comments) = match rejection {
            Some(r) => (r.rejected_at, r.feedback, r.step_comments),
            None => (None, String::new(), Vec::new()),
        };
        let steps = task
            .result
            .as_ref()
            .and_then(|r| r.structured_output.as_ref())
            .map(steps_of)
            .unwrap_or_default();
        earlier.push(Earlier {
            task_id: task.id.clone(),
            sent_back_at: rejected_at.or(link.filed_at),
            feedback: if link.feedback.is_empty() && link.step_comments.is_empty() {
                rejected_with
            } else {
                link.feedback
            },
            step_comments: if link.step_comments.is_empty() {
                rejected_comments
            } else {
                link.step_comments
            },
            steps,
        });
        next = Replaces::of(&task);
    }
    earlier.reverse();
    Ok(History { earlier })
}
