//! Pull requests as the API returns them: files, check runs, and the evaluation of their
//! merge rails with every reason and the migration verdicts. The rules live in `pr_rails`
//! and `migrations` (server side); these shapes are read by the dashboard too.

use crate::merge_policy::EffectivePolicy;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    Expand,
    Contract,
}

/// One statement with its verdict and the reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatementVerdict {
    pub statement: String,
    pub verdict: Verdict,
    pub reason: String,
}

/// A changed file as a worker reports it (GitHub's PR file fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrFile {
    pub path: String,
    /// `added`, `modified`, `removed` or `renamed`.
    pub status: String,
    #[serde(default)]
    pub additions: i64,
    #[serde(default)]
    pub deletions: i64,
    pub patch: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileVerdicts {
    pub path: String,
    pub statements: Vec<StatementVerdict>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MigrationReport {
    pub verdict: Verdict,
    /// Why it is CONTRACT; empty for EXPAND.
    pub reasons: Vec<String>,
    pub files: Vec<FileVerdicts>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckRun {
    pub name: String,
    pub head_sha: String,
    /// `queued`, `in_progress` or `completed`.
    pub status: String,
    pub conclusion: Option<String>,
}

/// Where a PR stands, for people: the first state that applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrState {
    Merged,
    Closed,
    CiPending,
    CiFailing,
    /// A rail or the tier holds it.
    Held,
    /// Every rail passes; the auto-threshold tier merges it.
    Ready,
}

/// Where the agent-review tier's reviewer stands on a PR's head commit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    /// No review of this commit yet.
    #[default]
    None,
    /// A reviewer is at work.
    Pending,
    /// A fix for the reviewer's findings is under way.
    ChangesRequested,
    /// Sent to a person, by the reviewer or by an escalation trigger.
    Escalated,
    /// Approved under `approve-only` (or with auto-merge off): a person merges.
    Approved,
    /// Approved; the merge waits for CI still running on the head commit.
    AwaitingCi,
}

/// One review of a PR: the reviewer's verdict and what came of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrReview {
    /// 1 for the first review, one more after each requested fix.
    pub iteration: i64,
    pub head_sha: Option<String>,
    /// `None` when an escalation trigger sent the PR to a person without a reviewer.
    pub reviewer_task_id: Option<String>,
    /// `approve`, `request-changes` or `escalate`; `None` while the reviewer works.
    pub verdict: Option<String>,
    pub confidence: Option<f64>,
    pub summary: Option<String>,
    /// `merged`, `awaiting_person`, `awaiting_ci`, `retry`, `escalated` or `stale`; `None`
    /// while the reviewer works.
    pub outcome: Option<String>,
    /// Why the server escalated or refused the reviewer's approval.
    #[serde(default)]
    pub reasons: Vec<String>,
    pub created_at: String,
    pub decided_at: Option<String>,
}

impl PrReview {
    /// The status this review gives its PR.
    pub fn status(&self) -> ReviewStatus {
        match self.outcome.as_deref() {
            None => ReviewStatus::Pending,
            Some("retry") => ReviewStatus::ChangesRequested,
            Some("escalated") => ReviewStatus::Escalated,
            Some("awaiting_person") => ReviewStatus::Approved,
            Some("awaiting_ci") => ReviewStatus::AwaitingCi,
            Some(_) => ReviewStatus::None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrEvaluation {
    pub state: PrState,
    /// Every rail that blocks, in words; the tier's hold comes last.
    pub reasons: Vec<String>,
    /// Whether a person may merge it now: every rail but the tier passes.
    pub mergeable_by_person: bool,
    /// Whether it merges by itself now.
    pub auto_merge: bool,
    /// The tier's (or the workspace's) own hold, also the last of `reasons`: what remains
    /// when no rail blocks.
    pub tier_hold: Option<String>,
    pub migrations: Option<MigrationReport>,
}

/// An item of `GET /api/prs`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PullRequest {
    pub number: i64,
    pub url: Option<String>,
    pub title: Option<String>,
    pub task_id: Option<String>,
    pub mission_id: Option<String>,
    pub workspace_id: String,
    pub base_branch: Option<String>,
    pub head_branch: Option<String>,
    pub head_sha: Option<String>,
    /// `open`, `merged` or `closed`.
    pub state: String,
    pub merged_at: Option<String>,
    /// When the PR was first reported.
    pub created_at: Option<String>,
    /// The files without their patches; `None` when the listing is missing or malformed.
    pub files: Option<Vec<PrFile>>,
    #[serde(default)]
    pub checks: Vec<CheckRun>,
    pub policy: EffectivePolicy,
    pub evaluation: PrEvaluation,
    /// The agent-review tier's reviews, newest first.
    #[serde(default)]
    pub reviews: Vec<PrReview>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PullRequestList {
    pub prs: Vec<PullRequest>,
}
