//! A PR's reviews under the agent-review tier: one per head commit, opened with its
//! reviewer task (or escalated at once), and decided when a verdict lands or goes stale.

use super::row::PrRow;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::pull_request::PrReview;
use buildd_core::reviewer::ReviewerOutput;
use buildd_core::PrReviewOutcome;

/// The reviews of PR `pr_id`, newest first.
pub async fn reviews_of(tx: &mut Tx, pr_id: &str) -> ApiResult<Vec<PrReview>> {
    type Row = (
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<f64>,
        Option<String>,
        Option<String>,
        String,
        String,
        Option<String>,
    );
    let rows: Vec<Row> = sql::query_as(
        "SELECT iteration, head_sha, reviewer_task_id, verdict, confidence, summary, outcome, \
         reasons, created_at, decided_at FROM pr_reviews WHERE pr_id = ? \
         ORDER BY created_at DESC, rowid DESC",
    )
    .bind(pr_id)
    .fetch_all(tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| PrReview {
            iteration: r.0,
            head_sha: r.1,
            reviewer_task_id: r.2,
            verdict: r.3,
            confidence: r.4,
            summary: r.5,
            outcome: r.6.map(PrReviewOutcome::from),
            reasons: serde_json::from_str(&r.7).unwrap_or_default(),
            created_at: r.8,
            decided_at: r.9,
        })
        .collect())
}

/// Opens review `iteration` of `pr`'s head commit, run by task `reviewer`; with `outcome`
/// it is decided at once (escalated before any reviewer runs).
pub async fn insert_review(
    tx: &mut Tx,
    pr: &PrRow,
    iteration: i64,
    reviewer: Option<&str>,
    outcome: Option<PrReviewOutcome>,
    reasons: &[String],
) -> ApiResult<()> {
    let at = now();
    sql::query(
        "INSERT INTO pr_reviews (id, pr_id, iteration, head_sha, reviewer_task_id, outcome, \
         reasons, created_at, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(&pr.id)
    .bind(iteration)
    .bind(&pr.head_sha)
    .bind(reviewer)
    .bind(outcome.as_ref().map(PrReviewOutcome::as_str))
    .bind(serde_json::to_string(reasons)?)
    .bind(&at)
    .bind(outcome.as_ref().map(|_| at.clone()))
    .execute(tx)
    .await?;
    Ok(())
}

/// A review whose verdict has not been applied yet.
pub struct PendingReview {
    pub id: String,
    pub pr_id: String,
    pub iteration: i64,
    pub head_sha: Option<String>,
}

/// The undecided review that reviewer task `reviewer_task` runs, if any.
pub async fn pending_review(tx: &mut Tx, reviewer_task: &str) -> ApiResult<Option<PendingReview>> {
    let row: Option<(String, String, i64, Option<String>)> = sql::query_as(
        "SELECT id, pr_id, iteration, head_sha FROM pr_reviews \
         WHERE reviewer_task_id = ? AND outcome IS NULL",
    )
    .bind(reviewer_task)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(|(id, pr_id, iteration, head_sha)| PendingReview {
        id,
        pr_id,
        iteration,
        head_sha,
    }))
}

/// Decides review `id`: `outcome` for `reasons`, keeping the reviewer's `output` if any.
pub async fn record_decision(
    tx: &mut Tx,
    id: &str,
    output: Option<&ReviewerOutput>,
    outcome: PrReviewOutcome,
    reasons: &[String],
) -> ApiResult<()> {
    sql::query(
        "UPDATE pr_reviews SET verdict = ?, confidence = ?, summary = ?, outcome = ?, \
         reasons = ?, decided_at = ? WHERE id = ?",
    )
    .bind(output.map(|o| o.verdict.clone()))
    .bind(output.map(|o| o.confidence))
    .bind(output.map(|o| o.summary.clone()))
    .bind(outcome.as_str())
    .bind(serde_json::to_string(reasons)?)
    .bind(now())
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Escalates review `id` to a person for `why`, keeping its verdict.
pub async fn escalate_review(tx: &mut Tx, id: &str, why: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE pr_reviews SET outcome = 'escalated', reasons = ?, decided_at = ? WHERE id = ?",
    )
    .bind(serde_json::to_string(&[why])?)
    .bind(now())
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// The reviews of `pr` still live (undecided, or approved and waiting for CI) — of commits
/// other than its head, or with `all` every one — with their reviewer tasks.
pub async fn live_reviews(
    tx: &mut Tx,
    pr: &PrRow,
    all: bool,
) -> ApiResult<Vec<(String, Option<String>)>> {
    Ok(sql::query_as(
        "SELECT id, reviewer_task_id FROM pr_reviews WHERE pr_id = ? \
         AND (outcome IS NULL OR outcome = 'awaiting_ci') AND (? <> 0 OR head_sha IS DISTINCT FROM ?)",
    )
    .bind(&pr.id)
    .bind(all)
    .bind(&pr.head_sha)
    .fetch_all(tx)
    .await?)
}

/// An approval of `pr`'s head commit that waits for CI.
pub struct AwaitingCi {
    pub review: PendingReview,
    pub reviewer_task_id: Option<String>,
    pub confidence: Option<f64>,
    pub summary: Option<String>,
}

/// The approval of `pr`'s head commit that waits for CI, if any.
pub async fn awaiting_ci(tx: &mut Tx, pr: &PrRow) -> ApiResult<Option<AwaitingCi>> {
    type Row = (
        String,
        i64,
        Option<String>,
        Option<String>,
        Option<f64>,
        Option<String>,
    );
    let row: Option<Row> = sql::query_as(
        "SELECT id, iteration, head_sha, reviewer_task_id, confidence, summary FROM pr_reviews \
         WHERE pr_id = ? AND outcome = 'awaiting_ci' AND head_sha IS NOT DISTINCT FROM ?",
    )
    .bind(&pr.id)
    .bind(&pr.head_sha)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(
        |(id, iteration, head_sha, reviewer_task_id, confidence, summary)| AwaitingCi {
            review: PendingReview {
                id,
                pr_id: pr.id.clone(),
                iteration,
                head_sha,
            },
            reviewer_task_id,
            confidence,
            summary,
        },
    ))
}

/// The newest review of `pr`'s head commit that asked for a fix.
pub async fn latest_retry(tx: &mut Tx, pr: &PrRow) -> ApiResult<Option<String>> {
    let asked: Option<(String,)> = sql::query_as(
        "SELECT id FROM pr_reviews WHERE pr_id = ? AND head_sha IS NOT DISTINCT FROM ? AND outcome = 'retry' \
         ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
    .bind(&pr.id)
    .bind(&pr.head_sha)
    .fetch_optional(tx)
    .await?;
    Ok(asked.map(|(id,)| id))
}
