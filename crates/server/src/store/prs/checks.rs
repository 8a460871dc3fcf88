//! A PR's CI check runs, as reported for its head commits.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::new_id;
use buildd_core::pull_request::CheckRun;
use buildd_core::CheckConclusion;

/// Records check run `check` on PR `pr_id`, at `at`.
pub async fn insert_check(tx: &mut Tx, pr_id: &str, check: &CheckRun, at: &str) -> ApiResult<()> {
    sql::query(
        "INSERT INTO check_runs (id, pr_id, head_sha, name, status, conclusion, details_url, \
         created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(pr_id)
    .bind(&check.head_sha)
    .bind(&check.name)
    .bind(check.status.as_str())
    .bind(check.conclusion.as_ref().map(CheckConclusion::as_str))
    .bind(&check.details_url)
    .bind(at)
    .execute(tx)
    .await?;
    Ok(())
}

/// A check run's row: name, head commit, status, conclusion, log address.
type CheckRow = (String, String, String, Option<String>, Option<String>);

/// The check runs of PR `pr_id`, oldest first.
pub async fn checks_of(tx: &mut Tx, pr_id: &str) -> ApiResult<Vec<CheckRun>> {
    let rows: Vec<CheckRow> = sql::query_as(
        "SELECT name, head_sha, status, conclusion, details_url FROM check_runs WHERE pr_id = ? \
         ORDER BY created_at, rowid",
    )
    .bind(pr_id)
    .fetch_all(tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(name, head_sha, status, conclusion, details_url)| CheckRun {
                name,
                head_sha,
                status: status.into(),
                conclusion: conclusion.map(Into::into),
                details_url,
            },
        )
        .collect())
}
