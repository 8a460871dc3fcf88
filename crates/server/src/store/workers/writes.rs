//! Writing workers: opened by a claim, moved by their runner's reports, finished, failed
//! when their task goes back to the queue, and marked when their PR merges.

use super::row::{returned_columns, WorkerRow};
use crate::db::sql;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::new_id;
use buildd_core::money::Usd;
use buildd_core::spend::UsageReport;
use buildd_core::worker::MILESTONES_KEPT;
use buildd_core::{PrLifecycle, WorkerStatus};
use serde_json::Value;

/// A worker about to be written. [`NewWorker::new`] opens one as a claim does: idle, started
/// when it is created, named after its runner.
#[derive(Clone, Debug)]
pub struct NewWorker {
    pub id: String,
    pub task_id: String,
    pub workspace_id: String,
    pub account_id: Option<String>,
    pub name: String,
    pub runner: String,
    pub branch: Option<String>,
    pub status: WorkerStatus,
    pub current_action: Option<String>,
    pub pr_url: Option<String>,
    pub pr_number: Option<i64>,
    pub merged_at: Option<String>,
    pub pr_lifecycle_status: Option<PrLifecycle>,
    pub error: Option<String>,
    pub started_at: Option<String>,
    pub completed_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// What it spent so far, in micro-dollars, and its tokens.
    pub cost_micros: i64,
    pub input_tokens: i64,
    pub output_tokens: i64,
}

impl NewWorker {
    /// An idle worker of `runner` on task `task_id`, opened at `at`, named `<runner>-<id>`.
    pub fn new(task_id: &str, workspace_id: &str, runner: &str, at: &str) -> Self {
        let id = new_id();
        Self {
            name: format!("{runner}-{}", &id[..8]),
            id,
            task_id: task_id.to_string(),
            workspace_id: workspace_id.to_string(),
            account_id: None,
            runner: runner.to_string(),
            branch: None,
            status: WorkerStatus::Idle,
            current_action: None,
            pr_url: None,
            pr_number: None,
            merged_at: None,
            pr_lifecycle_status: None,
            error: None,
            started_at: Some(at.to_string()),
            completed_at: None,
            created_at: at.to_string(),
            updated_at: at.to_string(),
            cost_micros: 0,
            input_tokens: 0,
            output_tokens: 0,
        }
    }
}

/// Writes `worker`; it becomes its task's latest worker.
pub async fn insert(tx: &mut Tx, w: &NewWorker) -> ApiResult<()> {
    sql::query(
        "INSERT INTO workers (id, task_id, workspace_id, account_id, name, runner, branch, \
         status, current_action, pr_url, pr_number, merged_at, pr_lifecycle_status, error, \
         started_at, completed_at, created_at, updated_at, cost_micros, input_tokens, \
         output_tokens) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&w.id)
    .bind(&w.task_id)
    .bind(&w.workspace_id)
    .bind(&w.account_id)
    .bind(&w.name)
    .bind(&w.runner)
    .bind(&w.branch)
    .bind(w.status.as_str())
    .bind(&w.current_action)
    .bind(&w.pr_url)
    .bind(w.pr_number)
    .bind(&w.merged_at)
    .bind(w.pr_lifecycle_status.as_ref().map(PrLifecycle::as_str))
    .bind(&w.error)
    .bind(&w.started_at)
    .bind(&w.completed_at)
    .bind(&w.created_at)
    .bind(&w.updated_at)
    .bind(w.cost_micros)
    .bind(w.input_tokens)
    .bind(w.output_tokens)
    .execute(tx)
    .await?;
    Ok(())
}

/// A runner's progress report: its status when it changes, its current action when the report
/// names one (`Some(None)` clears it), and its PR.
pub struct Progress<'a> {
    pub status: Option<&'a WorkerStatus>,
    pub current_action: Option<Option<String>>,
    pub pr_url: Option<&'a str>,
    pub pr_number: Option<i64>,
}

/// Writes worker `id`'s progress report; the worker as it left it, read in the same
/// statement (a report is most of a fleet's writes, and each statement is a round trip to
/// the writer's thread).
pub async fn report_progress(
    tx: &mut Tx,
    id: &str,
    p: &Progress<'_>,
    at: &str,
) -> ApiResult<WorkerRow> {
    // `status` is named only when it is written: a column set, even to its own value,
    // rewrites the index entries that hold it.
    let status = if p.status.is_some() {
        "status = ?, "
    } else {
        ""
    };
    let query = format!(
        "UPDATE workers SET {status}\
         current_action = CASE WHEN ? <> 0 THEN ? ELSE current_action END, \
         pr_url = ?, pr_number = ?, updated_at = ? WHERE id = ? RETURNING {}",
        returned_columns()
    );
    let mut query = sql::query_as(&query);
    if let Some(status) = p.status {
        query = query.bind(status.as_str());
    }
    let row = query
        .bind(p.current_action.is_some())
        .bind(p.current_action.clone().flatten())
        .bind(p.pr_url)
        .bind(p.pr_number)
        .bind(at)
        .bind(id)
        .fetch_optional(tx)
        .await?;
    row.ok_or(ApiError::NotFound("Worker not found"))
}

/// How a worker ended: completed, or failed with `error`, with the PR it delivered.
pub struct Finish<'a> {
    pub status: WorkerStatus,
    pub error: Option<&'a str>,
    pub pr_url: Option<&'a str>,
    pub pr_number: Option<i64>,
}

/// Finishes worker `id`; a PR it names for the first time is open.
pub async fn finish(tx: &mut Tx, id: &str, f: &Finish<'_>, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE workers SET status = ?, error = ?, pr_url = ?, pr_number = ?, \
         pr_lifecycle_status = CASE WHEN ? IS NOT NULL AND pr_lifecycle_status IS NULL \
           THEN 'pr_open' ELSE pr_lifecycle_status END, \
         current_action = NULL, completed_at = ?, updated_at = ? WHERE id = ?",
    )
    .bind(f.status.as_str())
    .bind(f.error)
    .bind(f.pr_url)
    .bind(f.pr_number)
    .bind(f.pr_url)
    .bind(at)
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Fails the unfinished workers of `task_id` with `why`: their runner has lost the task,
/// and its late reports are refused (409 `abort`).
pub async fn fail_unfinished(tx: &mut Tx, task_id: &str, why: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE workers SET status = 'failed', error = ?1, current_action = NULL, \
         completed_at = ?2, updated_at = ?2 \
         WHERE task_id = ?3 AND status NOT IN ('completed', 'failed', 'error')",
    )
    .bind(why)
    .bind(at)
    .bind(task_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Fails the unfinished workers of account `account_id` with `why`, as when its runner stops.
pub async fn fail_unfinished_of_account(
    tx: &mut Tx,
    account_id: &str,
    why: &str,
    at: &str,
) -> ApiResult<()> {
    sql::query(
        "UPDATE workers SET status = 'failed', error = ?1, completed_at = ?2, updated_at = ?2 \
         WHERE account_id = ?3 AND status NOT IN ('completed', 'failed', 'error')",
    )
    .bind(why)
    .bind(at)
    .bind(account_id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Links PR `number` (at `url`) to worker `id`, whose task it delivers.
pub async fn set_worker_pr(
    tx: &mut Tx,
    id: &str,
    url: Option<&str>,
    number: i64,
    at: &str,
) -> ApiResult<()> {
    sql::query(
        "UPDATE workers SET pr_url = COALESCE(?, pr_url), pr_number = ?, \
         pr_lifecycle_status = COALESCE(pr_lifecycle_status, 'pr_open'), updated_at = ? \
         WHERE id = ?",
    )
    .bind(url)
    .bind(number)
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// The workers that delivered PR `number` of `workspace_id`: it merged at `at`.
pub async fn mark_pr_merged(
    tx: &mut Tx,
    workspace_id: &str,
    number: i64,
    at: &str,
) -> ApiResult<()> {
    sql::query(
        "UPDATE workers SET merged_at = ?, pr_lifecycle_status = 'merged', updated_at = ? \
         WHERE workspace_id = ? AND pr_number = ?",
    )
    .bind(at)
    .bind(at)
    .bind(workspace_id)
    .bind(number)
    .execute(tx)
    .await?;
    Ok(())
}

/// Writes the running totals a report of worker `id` states; those it does not state stay.
pub async fn record_usage(tx: &mut Tx, id: &str, usage: &UsageReport) -> ApiResult<()> {
    if *usage == UsageReport::default() {
        return Ok(());
    }
    sql::query(
        "UPDATE workers SET cost_micros = COALESCE(?, cost_micros), \
         input_tokens = COALESCE(?, input_tokens), output_tokens = COALESCE(?, output_tokens) \
         WHERE id = ?",
    )
    .bind(usage.cost_usd.map(Usd::micros))
    .bind(
        usage
            .input_tokens
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
    )
    .bind(
        usage
            .output_tokens
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX)),
    )
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Replaces worker `id`'s milestones with `list` (its newest [`MILESTONES_KEPT`]), of
/// `reported` reported in all.
pub async fn set_milestones(
    tx: &mut Tx,
    id: &str,
    mut list: Vec<Value>,
    reported: i64,
) -> ApiResult<()> {
    let overflow = list.len().saturating_sub(MILESTONES_KEPT);
    list.drain(..overflow);
    sql::query("UPDATE workers SET milestones = ?, milestones_reported = ? WHERE id = ?")
        .bind(serde_json::to_string(&list)?)
        .bind(reported)
        .bind(id)
        .execute(tx)
        .await?;
    Ok(())
}

/// What a report says of its session beyond progress: counts, the question it waits on,
/// why it ended. `None` leaves a field as it is.
#[derive(Default, PartialEq)]
pub struct Session {
    pub turns: Option<i64>,
    pub commit_count: Option<i64>,
    pub files_changed: Option<i64>,
    pub lines_added: Option<i64>,
    pub lines_removed: Option<i64>,
    /// `Some(None)` clears it: the question was answered.
    pub waiting_for: Option<Option<Value>>,
    pub terminal_reason: Option<String>,
}

/// Writes what `session` states of worker `id`'s session; most reports state nothing, and
/// write nothing here.
pub async fn record_session(tx: &mut Tx, id: &str, session: &Session) -> ApiResult<()> {
    if *session == Session::default() {
        return Ok(());
    }
    sql::query(
        "UPDATE workers SET turns = COALESCE(?1, turns), \
         commit_count = COALESCE(?2, commit_count), \
         files_changed = COALESCE(?3, files_changed), \
         lines_added = COALESCE(?4, lines_added), lines_removed = COALESCE(?5, lines_removed), \
         waiting_for = CASE WHEN ?6 <> 0 THEN ?7 ELSE waiting_for END, \
         terminal_reason = COALESCE(?8, terminal_reason) WHERE id = ?9",
    )
    .bind(session.turns)
    .bind(session.commit_count)
    .bind(session.files_changed)
    .bind(session.lines_added)
    .bind(session.lines_removed)
    .bind(session.waiting_for.is_some())
    .bind(
        session
            .waiting_for
            .as_ref()
            .and_then(|w| w.as_ref().map(Value::to_string)),
    )
    .bind(&session.terminal_reason)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}
