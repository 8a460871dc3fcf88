//! Steering messages a person queues for a worker's agent, handed over with the worker's
//! next report.

use super::row::WorkerRow;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::{DeliveryState, InstructionEntry, MessageKind, INSTRUCTION_HISTORY_CAP};

/// Queues `message` for `worker` (its history keeps the newest [`INSTRUCTION_HISTORY_CAP`]).
pub async fn append_instruction(
    tx: &mut Tx,
    worker: &WorkerRow,
    message: String,
    at: &str,
) -> ApiResult<()> {
    let mut history = worker.history();
    history.push(InstructionEntry {
        kind: MessageKind::Instruction,
        message,
        timestamp: chrono::Utc::now().timestamp_millis(),
        delivery_state: Some(DeliveryState::Pending),
    });
    let overflow = history.len().saturating_sub(INSTRUCTION_HISTORY_CAP);
    history.drain(..overflow);
    sql::query("UPDATE workers SET instruction_history = ?, updated_at = ? WHERE id = ?")
        .bind(serde_json::to_string(&history)?)
        .bind(at)
        .bind(&worker.id)
        .execute(tx)
        .await?;
    Ok(())
}

/// Marks `worker`'s pending instructions delivered and returns their text. `worker` is its
/// row as read in this transaction (reports read it first), so the history is not read
/// again.
pub async fn deliver_pending(tx: &mut Tx, worker: &WorkerRow) -> ApiResult<Option<String>> {
    let mut entries = worker.history();
    let mut texts = Vec::new();
    for e in entries.iter_mut() {
        if e.delivery_state == Some(DeliveryState::Pending) {
            e.delivery_state = Some(DeliveryState::Delivered);
            texts.push(e.message.clone());
        }
    }
    if texts.is_empty() {
        return Ok(None);
    }
    sql::query("UPDATE workers SET instruction_history = ? WHERE id = ?")
        .bind(serde_json::to_string(&entries)?)
        .bind(&worker.id)
        .execute(tx)
        .await?;
    Ok(Some(texts.join("\n\n")))
}
