//! Pull requests as stored, with their CI check runs and agent reviews.

use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::pr_rails::Files;
use buildd_core::pull_request::{CheckRun, PrFile, PrReview};

#[derive(sqlx::FromRow, Clone, Debug)]
pub struct PrRow {
    pub id: String,
    pub team_id: String,
    pub workspace_id: String,
    pub task_id: Option<String>,
    pub mission_id: Option<String>,
    pub number: i64,
    pub url: Option<String>,
    pub title: Option<String>,
    pub base_branch: Option<String>,
    pub head_branch: Option<String>,
    pub head_sha: Option<String>,
    pub files: Option<String>,
    pub files_state: String,
    pub state: String,
    pub merged_at: Option<String>,
    pub created_at: String,
    pub stall_notified_at: Option<String>,
}

pub const PR_COLUMNS: &str = "p.id, p.team_id, p.workspace_id, p.task_id, p.mission_id, \
    p.number, p.url, p.title, p.base_branch, p.head_branch, p.head_sha, p.files, p.files_state, \
    p.state, p.merged_at, p.created_at, p.stall_notified_at";

impl PrRow {
    pub fn files(&self) -> Files {
        match self.files_state.as_str() {
            "listed" => self
                .files
                .as_deref()
                .and_then(|f| serde_json::from_str::<Vec<PrFile>>(f).ok())
                .map(Files::Listed)
                .unwrap_or(Files::Malformed),
            "malformed" => Files::Malformed,
            _ => Files::Missing,
        }
    }
}

/// The PR `number` of `workspace_id`.
pub async fn find_pr(tx: &mut Tx, workspace_id: &str, number: i64) -> ApiResult<Option<PrRow>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.workspace_id = ? AND p.number = ?"
    ))
    .bind(workspace_id)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?)
}

/// A check run's row: name, head commit, status, conclusion, log address.
type CheckRow = (String, String, String, Option<String>, Option<String>);

pub async fn checks_of(tx: &mut Tx, pr_id: &str) -> ApiResult<Vec<CheckRun>> {
    let rows: Vec<CheckRow> = sqlx::query_as(
        "SELECT name, head_sha, status, conclusion, details_url FROM check_runs WHERE pr_id = ? \
         ORDER BY created_at, rowid",
    )
    .bind(pr_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(name, head_sha, status, conclusion, details_url)| CheckRun {
                name,
                head_sha,
                status,
                conclusion,
                details_url,
            },
        )
        .collect())
}

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
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT iteration, head_sha, reviewer_task_id, verdict, confidence, summary, outcome, \
         reasons, created_at, decided_at FROM pr_reviews WHERE pr_id = ? \
         ORDER BY created_at DESC, rowid DESC",
    )
    .bind(pr_id)
    .fetch_all(&mut **tx)
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
            outcome: r.6,
            reasons: serde_json::from_str(&r.7).unwrap_or_default(),
            created_at: r.8,
            decided_at: r.9,
        })
        .collect())
}
