//! What would this have done? A proposed merge policy replayed over the team's recorded PRs,
//! and a proposed budget over a mission's recorded spend, in the browser, by the rules the
//! server applies: the merge policy's resolution (`merge_policy::effective_policy`) and the
//! rails' decision (`merge_rails::decide`) with the migration verdict the server's
//! classifier recorded; the budget's exhaustion (`budget::exhausts`).
//!
//! Each PR is judged at its last head commit as if still open: would it have merged by
//! itself, or waited, and for what.

mod budget;

pub use budget::{replay_budget, BudgetReplay};

use crate::merge_policy::{effective_policy, EffectivePolicy, MergePolicy};
use crate::merge_rails::{
    decide, escalations, no_migrations, Decision, Files, MigrationLayout, PrFacts, Rail,
};
use crate::pull_request::{CheckRun, MigrationReport, PrFile, ReviewStatus};
use crate::PrStatus;
use serde::{Deserialize, Serialize};

/// Whether a PR's file listing was had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Listing {
    Listed,
    Missing,
    Malformed,
}

impl Listing {
    /// A file listing as a recorded PR holds it: whether it was had, and its files.
    pub fn of(files: Files) -> (Listing, Vec<PrFile>) {
        match files {
            Files::Listed(files) => (Listing::Listed, files),
            Files::Missing => (Listing::Missing, vec![]),
            Files::Malformed => (Listing::Malformed, vec![]),
        }
    }
}

/// A PR as recorded, with every fact its merge decision reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedPr {
    pub number: i64,
    pub workspace_id: String,
    #[serde(default)]
    pub mission_id: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// What became of it.
    pub state: PrStatus,
    pub opened_at: String,
    #[serde(default)]
    pub merged_at: Option<String>,
    #[serde(default)]
    pub head_sha: Option<String>,
    pub listing: Listing,
    /// The changed files (patches may be left out: the verdict below has read them).
    #[serde(default)]
    pub files: Vec<PrFile>,
    #[serde(default)]
    pub checks: Vec<CheckRun>,
    /// The migration classifier's verdict on its files; `None` when it has no migrations.
    #[serde(default)]
    pub migrations: Option<MigrationReport>,
    /// Where the reviewer stood on its head commit.
    #[serde(default)]
    pub review: ReviewStatus,
    #[serde(default)]
    pub task_requires_review: bool,
    #[serde(default)]
    pub mission_requires_review: bool,
    #[serde(default)]
    pub mission_policy: Option<MergePolicy>,
    #[serde(default)]
    pub workspace_policy: Option<MergePolicy>,
    /// The workspace's `gitConfig.autoMergeOnGreenCI` (on unless turned off).
    #[serde(default = "on")]
    pub auto_merge_on_green: bool,
    #[serde(default)]
    pub migrations_path: Option<String>,
    #[serde(default)]
    pub schema_file: Option<String>,
}

fn on() -> bool {
    true
}

/// `GET /api/insights/prs?weeks=N`: the team's PRs opened from `since` on, as a replay
/// reads them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedPrs {
    pub since: String,
    pub prs: Vec<RecordedPr>,
}

impl RecordedPr {
    /// Its migrations judged by the server's classifier, as if no other PR were open, and
    /// its patches left out: the verdict has read them, and a replay needs nothing more.
    #[cfg(feature = "sql")]
    pub fn with_verdict(mut self) -> Self {
        use crate::migrations::classify_pr_migrations;
        use crate::pull_request::Verdict;
        if self.listing == Listing::Listed {
            let layout = self.layout();
            let report = classify_pr_migrations(&self.files, &layout, &[], Some(self.number));
            let shown = !report.files.is_empty() || report.verdict == Verdict::Contract;
            self.migrations = shown.then_some(report);
        }
        for file in &mut self.files {
            file.patch = None;
        }
        self
    }

    fn layout(&self) -> MigrationLayout {
        MigrationLayout::named(self.migrations_path.as_deref(), self.schema_file.as_deref())
    }
}

/// A policy to try: a workspace's default or a mission's own (`None`: cleared).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "scope", rename_all = "camelCase")]
pub enum Proposal {
    #[serde(rename_all = "camelCase")]
    Workspace {
        workspace_id: String,
        policy: Option<MergePolicy>,
    },
    #[serde(rename_all = "camelCase")]
    Mission {
        mission_id: String,
        policy: Option<MergePolicy>,
    },
}

impl Proposal {
    /// The same scope with `policy` proposed instead (`None`: cleared, inherited).
    pub fn with(&self, policy: Option<MergePolicy>) -> Proposal {
        match self {
            Proposal::Workspace { workspace_id, .. } => Proposal::Workspace {
                workspace_id: workspace_id.clone(),
                policy,
            },
            Proposal::Mission { mission_id, .. } => Proposal::Mission {
                mission_id: mission_id.clone(),
                policy,
            },
        }
    }

    /// Whether `pr` is one the proposal could change: of its workspace, or its mission.
    pub fn covers(&self, pr: &RecordedPr) -> bool {
        match self {
            Proposal::Workspace { workspace_id, .. } => pr.workspace_id == *workspace_id,
            Proposal::Mission { mission_id, .. } => {
                pr.mission_id.as_deref() == Some(mission_id.as_str())
            }
        }
    }
}

/// What a PR would have come to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Every rail passed: it merges by itself.
    MergedByItself,
    /// Only CI held it.
    WaitedForCi,
    /// The agent-review tier's reviewer decides, and nothing sends it to a person.
    WaitedForReviewer,
    /// A rail, the tier or the reviewer sends it to a person.
    WaitedForPerson,
}

impl Replayed {
    pub fn label(self) -> &'static str {
        match self {
            Replayed::MergedByItself => "Merged by itself",
            Replayed::WaitedForCi => "Waited for CI",
            Replayed::WaitedForReviewer => "Went to the reviewer",
            Replayed::WaitedForPerson => "Waited for a person",
        }
    }
}

/// Rails that leave a PR to a person.
fn is_person_rail(rail: Rail) -> bool {
    !matches!(rail, Rail::Ci | Rail::Reviewer)
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReplayedPr {
    pub number: i64,
    pub workspace_id: String,
    pub mission_id: Option<String>,
    pub title: Option<String>,
    /// What became of it in fact.
    pub state: PrStatus,
    pub policy: EffectivePolicy,
    pub outcome: Replayed,
    /// Each rail that held it, once, in the order of its reasons.
    pub rails: Vec<Rail>,
    pub reasons: Vec<String>,
}

/// How many PRs one rail held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RailCount {
    pub rail: Rail,
    pub prs: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolicyReplay {
    pub prs: Vec<ReplayedPr>,
    pub merged_by_itself: usize,
    pub waited_for_ci: usize,
    pub waited_for_reviewer: usize,
    pub waited_for_person: usize,
    /// Of the PRs that waited for a person, how many each rail held (one PR may count under
    /// several), in `Rail::ALL` order, rails that held none left out.
    pub by_rail: Vec<RailCount>,
}

impl PolicyReplay {
    /// What the replay says, in a sentence.
    pub fn describe(&self) -> String {
        if self.prs.is_empty() {
            return "No PRs in this period.".into();
        }
        let mut text = format!(
            "Of {}, {} would have merged by {}",
            super::plural(self.prs.len(), "PR", "PRs"),
            self.merged_by_itself,
            if self.merged_by_itself == 1 {
                "itself"
            } else {
                "themselves"
            }
        );
        if self.waited_for_person > 0 {
            let rails: Vec<String> = self
                .by_rail
                .iter()
                .map(|c| format!("{} {}", c.rail.label(), c.prs))
                .collect();
            text.push_str(&format!(
                "; {} would have waited for a person ({})",
                self.waited_for_person,
                rails.join(", ")
            ));
        }
        if self.waited_for_reviewer > 0 {
            text.push_str(&format!(
                "; {} would have gone to the reviewer",
                self.waited_for_reviewer
            ));
        }
        if self.waited_for_ci > 0 {
            text.push_str(&format!(
                "; {} would have waited for CI",
                self.waited_for_ci
            ));
        }
        text.push('.');
        text
    }
}

/// The policy that would apply to `pr` under `proposal` (`None`: as things stand).
pub fn policy_under(pr: &RecordedPr, proposal: Option<&Proposal>) -> EffectivePolicy {
    let (mut mission, mut workspace) = (pr.mission_policy.as_ref(), pr.workspace_policy.as_ref());
    match proposal {
        Some(Proposal::Workspace {
            workspace_id,
            policy,
        }) if *workspace_id == pr.workspace_id => workspace = policy.as_ref(),
        Some(Proposal::Mission { mission_id, policy })
            if pr.mission_id.as_deref() == Some(mission_id.as_str()) =>
        {
            mission = policy.as_ref()
        }
        _ => {}
    }
    effective_policy(
        pr.task_requires_review,
        pr.mission_requires_review,
        mission,
        workspace,
    )
}

/// `pr` decided under `policy` by the server's rule, open at its last head commit, with
/// its recorded migration verdict.
pub fn decide_recorded(pr: &RecordedPr, policy: &EffectivePolicy) -> Decision {
    let files = match pr.listing {
        Listing::Listed => Files::Listed(pr.files.clone()),
        Listing::Missing => Files::Missing,
        Listing::Malformed => Files::Malformed,
    };
    let facts = PrFacts {
        number: pr.number,
        head_sha: pr.head_sha.as_deref(),
        files: &files,
        checks: &pr.checks,
        merged: false,
        closed: false,
        review: pr.review,
    };
    let found = escalations(&files, &policy.policy, &pr.layout(), |_| {
        pr.migrations.clone().unwrap_or_else(no_migrations)
    });
    decide(&facts, policy, pr.auto_merge_on_green, found)
}

/// One PR judged under `proposal`.
pub fn replay_pr(pr: &RecordedPr, proposal: Option<&Proposal>) -> ReplayedPr {
    let policy = policy_under(pr, proposal);
    let decision = decide_recorded(pr, &policy);
    let mut rails: Vec<Rail> = Vec::new();
    for rail in decision.rails {
        if !rails.contains(&rail) {
            rails.push(rail);
        }
    }
    let to_person = rails.iter().any(|&r| is_person_rail(r))
        || (rails.contains(&Rail::Reviewer)
            && matches!(pr.review, ReviewStatus::Escalated | ReviewStatus::Approved));
    let outcome = if decision.evaluation.auto_merge {
        Replayed::MergedByItself
    } else if to_person {
        Replayed::WaitedForPerson
    } else if rails.contains(&Rail::Reviewer) {
        Replayed::WaitedForReviewer
    } else {
        Replayed::WaitedForCi
    };
    ReplayedPr {
        number: pr.number,
        workspace_id: pr.workspace_id.clone(),
        mission_id: pr.mission_id.clone(),
        title: pr.title.clone(),
        state: pr.state.clone(),
        policy,
        outcome,
        rails,
        reasons: decision.evaluation.reasons,
    }
}

/// The start of the last `weeks` weeks before `now_ms`.
pub fn weeks_before(now_ms: i64, weeks: u32) -> i64 {
    now_ms - i64::from(weeks) * 7 * 24 * 3_600_000
}

/// Replays `proposal` (`None`: the policies as they stand, the baseline to compare with)
/// over the PRs opened at or after `since_ms`.
pub fn replay_policy(
    prs: &[RecordedPr],
    proposal: Option<&Proposal>,
    since_ms: i64,
) -> PolicyReplay {
    let mut replay = PolicyReplay::default();
    let mut held = [0usize; Rail::ALL.len()];
    for pr in prs
        .iter()
        .filter(|p| super::ms_of(&p.opened_at).is_some_and(|at| at >= since_ms))
    {
        let r = replay_pr(pr, proposal);
        match r.outcome {
            Replayed::MergedByItself => replay.merged_by_itself += 1,
            Replayed::WaitedForCi => replay.waited_for_ci += 1,
            Replayed::WaitedForReviewer => replay.waited_for_reviewer += 1,
            Replayed::WaitedForPerson => {
                replay.waited_for_person += 1;
                for (i, rail) in Rail::ALL.iter().enumerate() {
                    held[i] += usize::from(r.rails.contains(rail));
                }
            }
        }
        replay.prs.push(r);
    }
    replay.by_rail = Rail::ALL
        .iter()
        .zip(held)
        .filter(|(_, prs)| *prs > 0)
        .map(|(&rail, prs)| RailCount { rail, prs })
        .collect();
    replay
}

#[cfg(test)]
mod tests;
