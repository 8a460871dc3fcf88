//! Putting a claimed or failed task back in the queue (`POST /api/tasks/{id}/reassign`),
//! as a runner's "take over" does: its worker fails and a late report from it is refused.

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::notes::system_note;
use crate::store::tasks::{requeue, Requeue, TaskRow};
use crate::store::workers::fail_unfinished;
use crate::time::iso;
use buildd_core::{NoteKind, TaskStatus};
use chrono::{DateTime, Utc};

/// What a reassign did, or why not.
pub enum Reassign {
    /// Back in the queue (a pending task stays there).
    Queued { was_assigned: bool },
    /// Left as it was; `can_take_over` says whether `force` would move it.
    Declined {
        reason: String,
        is_stale: bool,
        can_take_over: bool,
    },
    /// `force` from a key that may not take this claim over.
    Forbidden { reason: String, is_stale: bool },
}

/// Who asks: an admin key may take any claim over; another key only its own account's
/// claim, or one whose lease ran out.
pub struct Asker<'a> {
    pub admin: bool,
    pub account_id: &'a str,
}

pub async fn reassign(
    tx: &mut Tx,
    task: &TaskRow,
    force: bool,
    asker: Asker<'_>,
    now: DateTime<Utc>,
) -> ApiResult<Reassign> {
    let at = iso(now);
    let is_stale = task.expires_at.as_deref().is_some_and(|e| e < at.as_str());
    let holds_claim = task.claimed_by.as_deref() == Some(asker.account_id);
    let may_take_over = asker.admin || holds_claim || is_stale;
    match task.status() {
        TaskStatus::Assigned | TaskStatus::InProgress => {
            if !force {
                return Ok(Reassign::Declined {
                    reason: "Task is assigned. Use force=true to reassign.".into(),
                    is_stale,
                    can_take_over: may_take_over,
                });
            }
            if !may_take_over {
                return Ok(Reassign::Forbidden {
                    reason: "Cannot reassign: the claim is not stale and is another \
                             account's; an admin key may take it over"
                        .into(),
                    is_stale,
                });
            }
            back_to_queue(tx, &task.id, false, &at).await?;
            fail_unfinished(tx, &task.id, "Task was reassigned", &at).await?;
            if let Some(mission) = &task.mission_id {
                system_note(
                    tx,
                    &task.team_id,
                    mission,
                    Some(&task.id),
                    NoteKind::Warning,
                    &format!("\"{}\" was taken over", task.title),
                    Some(
                        "Its worker was stopped; the next runner to claim work picks it up.".into(),
                    ),
                )
                .await?;
            }
            Ok(Reassign::Queued { was_assigned: true })
        }
        TaskStatus::Pending if force && !asker.admin => Ok(Reassign::Forbidden {
            reason: "Cannot force reassign: an admin key is needed".into(),
            is_stale,
        }),
        TaskStatus::Pending => Ok(Reassign::Queued {
            was_assigned: false,
        }),
        TaskStatus::Failed => {
            back_to_queue(tx, &task.id, true, &at).await?;
            Ok(Reassign::Queued {
                was_assigned: false,
            })
        }
        other => Ok(Reassign::Declined {
            reason: format!("Cannot reassign task with status: {other}"),
            is_stale,
            can_take_over: false,
        }),
    }
}

/// Pending again, unclaimed; a failed task also forgets its result.
async fn back_to_queue(tx: &mut Tx, task_id: &str, clear_result: bool, at: &str) -> ApiResult<()> {
    let requeue_it = Requeue {
        task_id,
        lease: None,
        clear_result,
        at,
    };
    requeue(tx, &requeue_it).await.map(|_| ())
}
