//! A pull request as stored, with its file listing as the rails read it.

use buildd_core::pr_rails::Files;
use buildd_core::pull_request::PrFile;
use buildd_core::PrStatus;

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
    #[sqlx(try_from = "String")]
    pub state: PrStatus,
    pub merged_at: Option<String>,
    pub created_at: String,
    pub stall_notified_at: Option<String>,
}

pub(super) const PR_COLUMNS: &str = "p.id, p.team_id, p.workspace_id, p.task_id, p.mission_id, \
    p.number, p.url, p.title, p.base_branch, p.head_branch, p.head_sha, p.files, p.files_state, \
    p.state, p.merged_at, p.created_at, p.stall_notified_at";

impl PrRow {
    pub fn files(&self) -> Files {
        stored_files(&self.files_state, self.files.as_deref())
    }
}

/// A file listing as stored: `files_state` and, when listed, the files as JSON.
pub fn stored_files(state: &str, files: Option<&str>) -> Files {
    match state {
        "listed" => files
            .and_then(|f| serde_json::from_str::<Vec<PrFile>>(f).ok())
            .map(Files::Listed)
            .unwrap_or(Files::Malformed),
        "malformed" => Files::Malformed,
        _ => Files::Missing,
    }
}
