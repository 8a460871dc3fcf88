//! A merge a person asks for on a hosted Buildd, judged by this project's merge policy
//! before it is sent: Buildd's `PUT /api/github/pr` applies none. What Buildd's mission
//! answer tells of a PR (its stage, from the worker's `prLifecycleStatus`) stands in for
//! the facts the rails read, and the rails' own [`decide`] judges them: CI from the stage,
//! and no file listing (Buildd gives none to a key), so the size cap, protected paths and
//! migrations are rails a person merges past knowingly, as for a PR whose files could not
//! be listed here.

use crate::merge_policy::EffectivePolicy;
use crate::merge_rails::{decide, escalations, Files, MigrationLayout, PrFacts, Rail};
use crate::pull_request::{CheckRun, ReviewStatus};
use crate::task_prs::{TaskPr, TaskPrStage};
use crate::{CheckConclusion, CheckStatus};

/// What the policy says of a person's merge.
#[derive(Clone, Debug, PartialEq)]
pub enum HostedMerge {
    /// A person may merge it; `past` are the rails it would pass over (each with why),
    /// which the person confirms first ("merge past it").
    Allowed { past: Vec<(Rail, String)> },
    /// The policy would not let a person merge it now: the rail (none for a conflict or a
    /// PR that already ended) and why.
    Refused { rail: Option<Rail>, reason: String },
}

/// The head commit named for the stage's check, as Buildd does not give one.
const HEAD: &str = "buildd-head";

/// Where CI stands, as Buildd's stage tells it.
fn ci_words(stage: TaskPrStage) -> &'static str {
    match stage {
        TaskPrStage::CiFailed => "CI failed on the PR's latest commit",
        TaskPrStage::CiRunning => "CI is still running on the PR's latest commit",
        _ => "CI has not reported on the PR's latest commit",
    }
}

/// Judges a person's merge of `pr` under `policy`. Buildd's mission answer carries no
/// agent reviewer's verdict, so an agent-review tier refuses until the reviewer decides in
/// Buildd.
pub fn hosted_merge(pr: &TaskPr, policy: &EffectivePolicy) -> HostedMerge {
    let refused = |rail, reason: &str| HostedMerge::Refused {
        rail,
        reason: reason.to_string(),
    };
    match pr.stage {
        TaskPrStage::Merged => return refused(None, "the PR is already merged"),
        TaskPrStage::Closed => return refused(None, "the PR was closed"),
        TaskPrStage::Conflict => {
            return refused(
                None,
                "the PR conflicts with its base: it must be rebased first",
            )
        }
        _ => {}
    }
    let check = |status, conclusion| CheckRun {
        name: "Buildd's CI stage".into(),
        head_sha: HEAD.into(),
        status,
        conclusion,
        details_url: None,
    };
    let checks = match pr.stage {
        TaskPrStage::CiGreen => vec![check(
            CheckStatus::Completed,
            Some(CheckConclusion::Success),
        )],
        TaskPrStage::CiFailed => vec![check(
            CheckStatus::Completed,
            Some(CheckConclusion::Failure),
        )],
        TaskPrStage::CiRunning => vec![check(CheckStatus::InProgress, None)],
        _ => vec![],
    };
    let files = Files::Missing;
    let facts = PrFacts {
        number: pr.number.unwrap_or(0),
        head_sha: Some(HEAD),
        files: &files,
        checks: &checks,
        merged: false,
        closed: false,
        review: ReviewStatus::None,
    };
    let found = escalations(&files, &policy.policy, &MigrationLayout::default(), |_| {
        crate::merge_rails::no_migrations()
    });
    let decision = decide(&facts, policy, true, found);
    // CI is worded from Buildd's stage: the rails' own words name a head commit Buildd
    // did not give.
    let holds: Vec<(Rail, String)> = decision
        .rails
        .into_iter()
        .zip(decision.evaluation.reasons)
        .map(|(rail, reason)| match rail {
            Rail::Ci => (rail, ci_words(pr.stage).into()),
            _ => (rail, reason),
        })
        .collect();
    if decision.evaluation.mergeable_by_person {
        return HostedMerge::Allowed { past: holds };
    }
    // The first rail a person cannot pass: CI, or the reviewer.
    let (rail, reason) = holds
        .into_iter()
        .find(|(rail, _)| matches!(rail, Rail::Ci | Rail::Reviewer))
        .unwrap_or((Rail::Ci, ci_words(pr.stage).into()));
    HostedMerge::Refused {
        rail: Some(rail),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge_policy::effective_policy;
    use crate::merge_policy::MergePolicy;

    fn pr(stage: TaskPrStage) -> TaskPr {
        TaskPr {
            url: "https://github.com/o/r/pull/7".into(),
            number: Some(7),
            task_id: "t".into(),
            task_title: "Add /healthz".into(),
            stage,
        }
    }

    fn policy(tier: &str) -> EffectivePolicy {
        let policy: MergePolicy =
            serde_json::from_value(serde_json::json!({"tier": tier})).unwrap();
        effective_policy(false, false, Some(&policy), None)
    }

    #[test]
    fn green_ci_lets_a_person_merge_past_the_rails_buildd_cannot_show() {
        let HostedMerge::Allowed { past } =
            hosted_merge(&pr(TaskPrStage::CiGreen), &policy("auto-threshold"))
        else {
            panic!("refused");
        };
        assert_eq!(past[0].0, Rail::FileListing);
        // The human tier says a person merges: allowed, with that said.
        let HostedMerge::Allowed { past } =
            hosted_merge(&pr(TaskPrStage::CiGreen), &policy("human"))
        else {
            panic!("refused");
        };
        assert!(past.iter().any(|(rail, _)| *rail == Rail::Tier));
    }

    #[test]
    fn ci_that_has_not_passed_refuses_naming_the_rail() {
        for stage in [
            TaskPrStage::CiFailed,
            TaskPrStage::CiRunning,
            TaskPrStage::Open,
        ] {
            match hosted_merge(&pr(stage), &policy("human")) {
                HostedMerge::Refused { rail, reason } => {
                    assert_eq!(rail, Some(Rail::Ci), "{stage:?}");
                    assert!(!reason.contains(HEAD), "{reason}");
                    assert!(reason.starts_with("CI "), "{reason}");
                }
                other => panic!("{stage:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_agent_reviewer_decides_before_a_person_under_agent_review() {
        let HostedMerge::Refused { rail, .. } =
            hosted_merge(&pr(TaskPrStage::CiGreen), &policy("agent-review"))
        else {
            panic!("allowed");
        };
        assert_eq!(rail, Some(Rail::Reviewer));
    }

    #[test]
    fn a_conflict_or_a_finished_pr_is_not_merged() {
        for stage in [
            TaskPrStage::Conflict,
            TaskPrStage::Merged,
            TaskPrStage::Closed,
        ] {
            assert!(matches!(
                hosted_merge(&pr(stage), &policy("human")),
                HostedMerge::Refused { rail: None, .. }
            ));
        }
    }
}
