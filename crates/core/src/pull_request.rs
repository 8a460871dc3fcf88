//! Pull requests as the API returns them: files, check runs, and the evaluation of their
//! merge rails with every reason and the migration verdicts. The rules live in
//! `merge_rails`, `pr_rails` and `migrations` (the last two server side); these shapes are
//! read by the dashboard too.

use crate::enums::{CheckConclusion, CheckStatus, FileStatus, PrReviewOutcome, PrStatus};
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
    pub status: FileStatus,
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
    pub status: CheckStatus,
    pub conclusion: Option<CheckConclusion>,
    /// Where the run's log is (GitHub's `details_url`): an http(s) address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details_url: Option<String>,
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
    /// `None` while the reviewer works.
    pub outcome: Option<PrReviewOutcome>,
    /// Why the server escalated or refused the reviewer's approval.
    #[serde(default)]
    pub reasons: Vec<String>,
    pub created_at: String,
    pub decided_at: Option<String>,
}

impl PrReview {
    /// The status this review gives its PR.
    pub fn status(&self) -> ReviewStatus {
        ReviewStatus::of_outcome(self.outcome.as_ref())
    }

    /// Its verdict came after the PR left agent review or moved on: it does not count.
    pub fn is_stale(&self) -> bool {
        self.outcome == Some(PrReviewOutcome::Stale)
    }
}

impl ReviewStatus {
    /// The status a review with `outcome` (`None`: the reviewer still works) gives its PR.
    pub fn of_outcome(outcome: Option<&PrReviewOutcome>) -> Self {
        match outcome {
            None => ReviewStatus::Pending,
            Some(PrReviewOutcome::Retry) => ReviewStatus::ChangesRequested,
            Some(PrReviewOutcome::Escalated) => ReviewStatus::Escalated,
            Some(PrReviewOutcome::AwaitingPerson) => ReviewStatus::Approved,
            Some(PrReviewOutcome::AwaitingCi) => ReviewStatus::AwaitingCi,
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
    pub state: PrStatus,
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

/// Lock files, left out of a diff's size: a dependency bump rewrites them wholesale.
const NOISE: [&str; 5] = [
    "Cargo.lock",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
];

/// Whether `path` is a lock file, which the size cap does not count.
pub fn is_noise(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    NOISE.contains(&name)
}

/// How big a PR is: lines added and removed in every file, and the lines the size cap
/// counts (lock files left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiffSize {
    pub additions: i64,
    pub deletions: i64,
    pub counted: i64,
    pub lock_files: usize,
}

pub fn diff_size(files: &[PrFile]) -> DiffSize {
    files.iter().fold(DiffSize::default(), |mut size, f| {
        size.additions += f.additions;
        size.deletions += f.deletions;
        if is_noise(&f.path) {
            size.lock_files += 1;
        } else {
            size.counted += f.additions + f.deletions;
        }
        size
    })
}

/// Where a check run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    Passed,
    Failed,
    Pending,
}

impl CheckRun {
    pub fn outcome(&self) -> CheckOutcome {
        match (&self.status, &self.conclusion) {
            (CheckStatus::Completed, Some(c)) if c.passes() => CheckOutcome::Passed,
            (CheckStatus::Completed, _) => CheckOutcome::Failed,
            _ => CheckOutcome::Pending,
        }
    }
}

/// The latest run of each check on commit `head`, in the order the checks were first
/// reported: an earlier run of a check is superseded by its re-run.
pub fn head_checks<'a>(checks: &'a [CheckRun], head: &str) -> Vec<&'a CheckRun> {
    let mut latest: Vec<&CheckRun> = Vec::new();
    for run in checks.iter().filter(|c| c.head_sha == head) {
        match latest.iter_mut().find(|c| c.name == run.name) {
            Some(slot) => *slot = run,
            None => latest.push(run),
        }
    }
    latest
}

/// What merges a PR, or what stops it, in one sentence for a person: "Merges
/// automatically: …", "Waiting for you to merge: …", "Blocked because …".
pub fn merge_outlook(pr: &PullRequest) -> String {
    match pr.state {
        PrStatus::Merged => return "Merged.".into(),
        PrStatus::Closed => return "Closed without merging.".into(),
        _ => {}
    }
    let e = &pr.evaluation;
    if e.auto_merge {
        return "Merges automatically: CI passed and every rail passes.".into();
    }
    // The tier's hold is last among the reasons; CI's, when CI holds it, is first.
    let ci_holds = matches!(e.state, PrState::CiPending | PrState::CiFailing);
    let mut rails: Vec<&str> = e.reasons.iter().map(String::as_str).collect();
    if e.tier_hold.is_some() {
        rails.pop();
    }
    let ci = if ci_holds && !rails.is_empty() {
        Some(rails.remove(0))
    } else {
        None
    };
    let then = match (rails.is_empty(), &e.tier_hold) {
        (false, _) => format!("blocked because {}", rails.join("; ")),
        (true, None) => "it merges automatically".into(),
        (true, Some(hold)) => format!("it waits: {hold}"),
    };
    match (e.state, ci) {
        (PrState::CiFailing, Some(ci)) => format!("Blocked because {ci}."),
        (PrState::CiPending, Some(ci)) => format!("Waiting for CI ({ci}); then {then}."),
        _ if !rails.is_empty() && e.mergeable_by_person => {
            format!(
                "Blocked because {}. You can merge past it.",
                rails.join("; ")
            )
        }
        _ if !rails.is_empty() => format!("Blocked because {}.", rails.join("; ")),
        _ if e.mergeable_by_person => match &e.tier_hold {
            Some(hold) => format!("Waiting for you to merge ({hold})."),
            None => "Waiting for you to merge.".into(),
        },
        _ => match &e.tier_hold {
            Some(hold) => format!("Waiting: {hold}."),
            None => "Waiting.".into(),
        },
    }
}

#[cfg(test)]
mod tests;
