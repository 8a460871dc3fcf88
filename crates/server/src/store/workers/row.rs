//! A worker (one per claim of a task) as stored, and the shapes the API answers with.

use buildd_core::money::Usd;
use buildd_core::{
    DeliveryState, InstructionEntry, PrLifecycle, TaskWorker, Worker, WorkerSession, WorkerStatus,
};
use serde_json::Value;

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct WorkerRow {
    pub id: String,
    pub task_id: String,
    pub workspace_id: String,
    pub account_id: Option<String>,
    pub name: String,
    pub runner: String,
    pub status: String,
    pub branch: Option<String>,
    pub current_action: Option<String>,
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    pub pr_lifecycle_status: Option<String>,
    pub error: Option<String>,
    pub started_at: Option<String>,
    pub completed_at: Option<String>,
    pub instruction_history: String,
    pub milestones: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Its runner's running totals: cost in micro-dollars, and tokens.
    pub cost_micros: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    /// What its session did, as the runner counts it.
    pub turns: i64,
    pub commit_count: i64,
    pub files_changed: i64,
    pub lines_added: i64,
    pub lines_removed: i64,
    /// Why its session ended, in the runner's words (`max_turns`, `end_turn`…).
    pub terminal_reason: Option<String>,
    /// The question it waits on (JSON), while a person has not answered it.
    pub waiting_for: Option<String>,
    /// Every milestone ever reported; `milestones` keeps the newest of them.
    pub milestones_reported: i64,
}

pub(super) const WORKER_COLUMNS: &str = "w.id, w.task_id, w.workspace_id, w.account_id, w.name, \
    w.runner, w.status, w.branch, w.current_action, w.pr_url, w.pr_number, w.merged_at, \
    w.pr_lifecycle_status, w.error, w.started_at, w.completed_at, w.instruction_history, \
    w.milestones, \
    w.created_at, w.updated_at, w.cost_micros, w.input_tokens, w.output_tokens, w.turns, \
    w.commit_count, w.files_changed, w.lines_added, w.lines_removed, w.terminal_reason, \
    w.waiting_for, w.milestones_reported";

/// The same columns unqualified, as `RETURNING` takes them (it does not know a table's alias).
pub(super) fn returned_columns() -> &'static str {
    static COLUMNS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    COLUMNS.get_or_init(|| WORKER_COLUMNS.replace("w.", ""))
}

/// Newest first: by start, then creation.
pub(super) const WORKER_ORDER: &str =
    "COALESCE(w.started_at, w.created_at) DESC, w.created_at DESC";

impl WorkerRow {
    pub fn status(&self) -> WorkerStatus {
        WorkerStatus::parse(&self.status)
    }

    /// What its runner reported spending so far.
    pub fn cost(&self) -> Usd {
        Usd::from_micros(self.cost_micros)
    }

    /// Finished: it takes no more updates or instructions.
    pub fn is_finished(&self) -> bool {
        matches!(
            self.status(),
            WorkerStatus::Completed | WorkerStatus::Failed | WorkerStatus::Error
        )
    }

    /// What it reported reaching, oldest first.
    pub fn milestones(&self) -> Vec<Value> {
        self.milestones
            .as_deref()
            .and_then(|m| serde_json::from_str(m).ok())
            .unwrap_or_default()
    }

    /// The question it waits on, while unanswered.
    pub fn waiting_for(&self) -> Option<Value> {
        self.waiting_for
            .as_deref()
            .and_then(|w| serde_json::from_str(w).ok())
    }

    pub fn history(&self) -> Vec<InstructionEntry> {
        serde_json::from_str(&self.instruction_history).unwrap_or_default()
    }

    /// The full row, as the worker protocol returns it.
    pub fn to_worker(&self) -> Worker {
        let history = self.history();
        let pending: Vec<&str> = history
            .iter()
            .filter(|e| e.delivery_state == Some(DeliveryState::Pending))
            .map(|e| e.message.as_str())
            .collect();
        Worker {
            id: self.id.clone(),
            task_id: self.task_id.clone(),
            workspace_id: self.workspace_id.clone(),
            account_id: self.account_id.clone(),
            name: self.name.clone(),
            runner: self.runner.clone(),
            branch: self.branch.clone(),
            status: self.status(),
            current_action: self.current_action.clone(),
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
            pr_lifecycle_status: self.pr_lifecycle_status.as_deref().map(PrLifecycle::parse),
            error: self.error.clone(),
            pending_instructions: (!pending.is_empty()).then(|| pending.join("\n\n")),
            instruction_history: history,
            started_at: self.started_at.clone(),
            completed_at: self.completed_at.clone(),
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
            session: WorkerSession {
                milestones: self.milestones(),
                cost_usd: Some(self.cost().to_decimal_string()),
                input_tokens: self.input_tokens,
                output_tokens: self.output_tokens,
                waiting_for: self.waiting_for(),
                turns: self.turns,
                commit_count: self.commit_count,
                files_changed: self.files_changed,
                lines_added: self.lines_added,
                lines_removed: self.lines_removed,
                ..Default::default()
            },
        }
    }

    pub fn to_task_worker(&self) -> TaskWorker {
        TaskWorker {
            id: self.id.clone(),
            status: WorkerStatus::parse(&self.status),
            branch: self.branch.clone(),
            pr_url: self.pr_url.clone(),
            pr_number: self.pr_number,
            merged_at: self.merged_at.clone(),
            error: self.error.clone(),
            current_action: self.current_action.clone(),
            started_at: self.started_at.clone(),
            completed_at: self.completed_at.clone(),
            created_at: Some(self.created_at.clone()),
            last_commit_sha: None,
            updated_at: Some(self.updated_at.clone()),
            cost_usd: Some(self.cost().to_decimal_string()),
            input_tokens: Some(self.input_tokens),
            output_tokens: Some(self.output_tokens),
            turns: Some(self.turns),
            commit_count: Some(self.commit_count),
            files_changed: Some(self.files_changed),
            lines_added: Some(self.lines_added),
            lines_removed: Some(self.lines_removed),
            milestones: self.milestones(),
            milestones_reported: Some(self.milestones_reported),
            waiting_for: self.waiting_for(),
            terminal_reason: self.terminal_reason.clone(),
        }
    }
}
