//! The merge policy's what-if rows (`GET /api/insights/prs`): the team's PRs opened from a
//! moment on, each with every fact its merge decision reads — its files and checks, where
//! its reviewer stood on its head commit, its task's and mission's review flags and the
//! mission's and workspace's policies. Three statements, whatever the number of PRs.

use crate::db::sql::{self, Flag};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::prs::stored_files;
use buildd_core::insights::what_if::{Listing, RecordedPr};
use buildd_core::merge_rails::GitMergeConfig;
use buildd_core::pull_request::{CheckRun, ReviewStatus};
use buildd_core::{PrReviewOutcome, PrStatus};
use serde_json::Value;
use std::collections::HashMap;

/// Of the team's PRs opened at or after `?2`.
const SCOPE: &str = "p.team_id = ?1 AND p.created_at >= ?2";

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    number: i64,
    workspace_id: String,
    mission_id: Option<String>,
    title: Option<String>,
    #[sqlx(try_from = "String")]
    state: PrStatus,
    created_at: String,
    merged_at: Option<String>,
    head_sha: Option<String>,
    files: Option<String>,
    files_state: String,
    task_requires_review: Option<Flag>,
    mission_requires_review: Option<Flag>,
    mission_policy: Option<String>,
    git_config: String,
}

impl Row {
    fn recorded(self, checks: Vec<CheckRun>, review: ReviewStatus) -> RecordedPr {
        let git: Value = serde_json::from_str(&self.git_config).unwrap_or(Value::Null);
        let git = GitMergeConfig::of(&git);
        let (listing, files) = Listing::of(stored_files(&self.files_state, self.files.as_deref()));
        RecordedPr {
            number: self.number,
            workspace_id: self.workspace_id,
            mission_id: self.mission_id,
            title: self.title,
            state: self.state,
            opened_at: self.created_at,
            merged_at: self.merged_at,
            head_sha: self.head_sha,
            listing,
            files,
            checks,
            migrations: None,
            review,
            task_requires_review: self.task_requires_review.is_some_and(bool::from),
            mission_requires_review: self.mission_requires_review.is_some_and(bool::from),
            mission_policy: self
                .mission_policy
                .and_then(|p| serde_json::from_str(&p).ok()),
            workspace_policy: git.policy,
            auto_merge_on_green: git.auto_merge_on_green,
            migrations_path: git.migrations_path,
            schema_file: git.schema_file,
        }
        .with_verdict()
    }
}

/// The team's PRs opened at or after `since`, oldest first, as a replay reads them.
pub async fn recorded_prs(tx: &mut Tx, team_id: &str, since: &str) -> ApiResult<Vec<RecordedPr>> {
    let rows: Vec<Row> = sql::query_as(&format!(
        "SELECT p.id, p.number, p.workspace_id, p.mission_id, p.title, p.state, p.created_at, \
         p.merged_at, p.head_sha, p.files, p.files_state, \
         t.requires_review AS task_requires_review, m.requires_review AS mission_requires_review, \
         m.merge_policy AS mission_policy, w.git_config \
         FROM pull_requests p JOIN workspaces w ON w.id = p.workspace_id \
         LEFT JOIN tasks t ON t.id = p.task_id LEFT JOIN missions m ON m.id = p.mission_id \
         WHERE {SCOPE} ORDER BY p.created_at, p.number"
    ))
    .bind(team_id)
    .bind(since)
    .fetch_all(tx)
    .await?;
    let mut checks = checks(tx, team_id, since).await?;
    let reviews = head_reviews(tx, team_id, since).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let review = reviews
                .get(&row.id)
                .filter(|(sha, _)| sha.is_some() && *sha == row.head_sha)
                .map_or(ReviewStatus::None, |(_, outcome)| {
                    ReviewStatus::of_outcome(outcome.as_ref())
                });
            let runs = checks.remove(&row.id).unwrap_or_default();
            row.recorded(runs, review)
        })
        .collect())
}

type CheckRow = (
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
);

/// Every check run of those PRs, by PR, in the order they were reported.
async fn checks(
    tx: &mut Tx,
    team_id: &str,
    since: &str,
) -> ApiResult<HashMap<String, Vec<CheckRun>>> {
    let rows: Vec<CheckRow> = sql::query_as(&format!(
        "SELECT c.pr_id, c.name, c.head_sha, c.status, c.conclusion, c.details_url \
         FROM check_runs c JOIN pull_requests p ON p.id = c.pr_id \
         WHERE {SCOPE} ORDER BY c.created_at, c.rowid"
    ))
    .bind(team_id)
    .bind(since)
    .fetch_all(tx)
    .await?;
    let mut by_pr: HashMap<String, Vec<CheckRun>> = HashMap::new();
    for (pr, name, head_sha, status, conclusion, details_url) in rows {
        by_pr.entry(pr).or_default().push(CheckRun {
            name,
            head_sha,
            status: status.into(),
            conclusion: conclusion.map(Into::into),
            details_url,
        });
    }
    Ok(by_pr)
}

/// Each PR's newest review: the commit it reviewed and its outcome (`None` while it runs).
async fn head_reviews(
    tx: &mut Tx,
    team_id: &str,
    since: &str,
) -> ApiResult<HashMap<String, (Option<String>, Option<PrReviewOutcome>)>> {
    let rows: Vec<(String, Option<String>, Option<String>)> = sql::query_as(&format!(
        "SELECT r.pr_id, r.head_sha, r.outcome FROM pr_reviews r \
         JOIN pull_requests p ON p.id = r.pr_id \
         WHERE {SCOPE} ORDER BY r.created_at DESC, r.rowid DESC"
    ))
    .bind(team_id)
    .bind(since)
    .fetch_all(tx)
    .await?;
    let mut newest = HashMap::new();
    for (pr, head_sha, outcome) in rows {
        newest
            .entry(pr)
            .or_insert((head_sha, outcome.map(PrReviewOutcome::from)));
    }
    Ok(newest)
}
