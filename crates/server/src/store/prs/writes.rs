//! Writing pull requests: recorded from a worker's report, merged (with the release it
//! makes), and told about when they stall.

use super::row::PrRow;
use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::PrStatus;

/// A PR about to be written. [`NewPr::new`] gives the schema's defaults: open, its file
/// listing missing.
#[derive(Clone, Debug)]
pub struct NewPr {
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
    /// The changed files, a JSON array, when `files_state` is `listed`.
    pub files: Option<String>,
    /// `listed`, `missing` or `malformed`.
    pub files_state: String,
    pub state: PrStatus,
    pub merged_at: Option<String>,
    pub merged_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl NewPr {
    /// Open PR `number` of `workspace_id`, recorded now.
    pub fn new(team_id: &str, workspace_id: &str, number: i64) -> Self {
        let at = now();
        Self {
            id: new_id(),
            team_id: team_id.to_string(),
            workspace_id: workspace_id.to_string(),
            task_id: None,
            mission_id: None,
            number,
            url: None,
            title: None,
            base_branch: None,
            head_branch: None,
            head_sha: None,
            files: None,
            files_state: "missing".into(),
            state: "open".into(),
            merged_at: None,
            merged_by: None,
            created_at: at.clone(),
            updated_at: at,
        }
    }
}

/// Writes `pr`.
pub async fn insert(tx: &mut Tx, pr: &NewPr) -> ApiResult<()> {
    sql::query(
        "INSERT INTO pull_requests (id, team_id, workspace_id, task_id, mission_id, number, \
         url, title, base_branch, head_branch, head_sha, files, files_state, state, merged_at, \
         merged_by, created_at, updated_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&pr.id)
    .bind(&pr.team_id)
    .bind(&pr.workspace_id)
    .bind(&pr.task_id)
    .bind(&pr.mission_id)
    .bind(pr.number)
    .bind(&pr.url)
    .bind(&pr.title)
    .bind(&pr.base_branch)
    .bind(&pr.head_branch)
    .bind(&pr.head_sha)
    .bind(&pr.files)
    .bind(&pr.files_state)
    .bind(pr.state.as_str())
    .bind(&pr.merged_at)
    .bind(&pr.merged_by)
    .bind(&pr.created_at)
    .bind(&pr.updated_at)
    .execute(tx)
    .await?;
    Ok(())
}

/// A report on a recorded PR: `None` keeps what was recorded, and so does a `missing` file
/// listing. `task_id` `None` keeps the PR's task; its mission is always the reporter's.
pub struct Reported<'a> {
    pub url: Option<&'a str>,
    pub title: Option<&'a str>,
    pub base_branch: Option<&'a str>,
    pub head_branch: Option<&'a str>,
    pub head_sha: Option<&'a str>,
    pub files: Option<&'a str>,
    pub files_state: &'a str,
    pub task_id: Option<&'a str>,
    pub mission_id: Option<&'a str>,
}

/// Writes report `r` onto PR `id`.
pub async fn update_reported(tx: &mut Tx, id: &str, r: &Reported<'_>, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE pull_requests SET url = COALESCE(?, url), title = COALESCE(?, title), \
         base_branch = COALESCE(?, base_branch), \
         head_branch = COALESCE(?, head_branch), head_sha = COALESCE(?, head_sha), \
         files = CASE WHEN ? = 'missing' THEN files ELSE ? END, \
         files_state = CASE WHEN ? = 'missing' THEN files_state ELSE ? END, \
         task_id = COALESCE(?, task_id), mission_id = ?, updated_at = ? \
         WHERE id = ?",
    )
    .bind(r.url)
    .bind(r.title)
    .bind(r.base_branch)
    .bind(r.head_branch)
    .bind(r.head_sha)
    .bind(r.files_state)
    .bind(r.files)
    .bind(r.files_state)
    .bind(r.files_state)
    .bind(r.task_id)
    .bind(r.mission_id)
    .bind(at)
    .bind(id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Marks open PR `pr` merged by `by`.
pub async fn mark_merged(tx: &mut Tx, pr: &PrRow, by: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "UPDATE pull_requests SET state = 'merged', merged_at = ?, merged_by = ?, updated_at = ? \
         WHERE id = ? AND state = 'open'",
    )
    .bind(at)
    .bind(by)
    .bind(at)
    .bind(&pr.id)
    .execute(tx)
    .await?;
    Ok(())
}

/// Records the release a merge of `pr` by `by` made.
pub async fn record_release(tx: &mut Tx, pr: &PrRow, by: &str, at: &str) -> ApiResult<()> {
    sql::query(
        "INSERT INTO release_events (id, team_id, workspace_id, pr_id, mission_id, merged_by, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(&pr.team_id)
    .bind(&pr.workspace_id)
    .bind(&pr.id)
    .bind(&pr.mission_id)
    .bind(by)
    .bind(at)
    .execute(tx)
    .await?;
    Ok(())
}

/// The mission was told at `at` that PR `id` stalls.
pub async fn set_stall_notified(tx: &mut Tx, id: &str, at: &str) -> ApiResult<()> {
    sql::query("UPDATE pull_requests SET stall_notified_at = ? WHERE id = ?")
        .bind(at)
        .bind(id)
        .execute(tx)
        .await?;
    Ok(())
}
