//! `Comparison`: a revision set against the one it replaces (buildd-core's `diff_plans`), and
//! what became of the comments pinned to that one's steps.

use buildd_core::plan_diff::{diff_plans, PlanDiff, StepChange, StepDiff};
use buildd_core::plan_feedback::{comment_outcome, CommentOutcome, StepComment};
use buildd_core::plan_output::PlanStep;

/// A revision compared with the one before it, and what became of the comments pinned to
/// that one's steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// The number of the revision compared with.
    pub against: usize,
    pub diff: PlanDiff,
    pub comments: Vec<(StepComment, CommentOutcome)>,
}

impl Comparison {
    pub fn of(
        against: usize,
        old: &[PlanStep],
        new: &[PlanStep],
        comments: &[StepComment],
    ) -> Self {
        let diff = diff_plans(old, new);
        let comments = comments
            .iter()
            .map(|c| (c.clone(), comment_outcome(c, &diff)))
            .collect();
        Self {
            against,
            diff,
            comments,
        }
    }

    /// How the step that has `new_ref` in this revision changed.
    pub fn change_of(&self, new_ref: &str) -> Option<StepChange> {
        self.diff
            .steps
            .iter()
            .find(|s| s.new_ref.as_deref() == Some(new_ref))
            .map(|s| s.change)
    }

    /// The comments on the step that became `step` here, or (for a removed step) was it.
    pub fn comments_on(&self, step: &StepDiff) -> Vec<(StepComment, CommentOutcome)> {
        let Some(old_ref) = step.old_ref.as_deref() else {
            return Vec::new();
        };
        self.comments
            .iter()
            .filter(|(c, _)| c.step_ref == old_ref)
            .cloned()
            .collect()
    }

    /// The comments on the step that has `new_ref` in this revision.
    pub fn comments_on_ref(&self, new_ref: &str) -> Vec<(StepComment, CommentOutcome)> {
        self.diff
            .steps
            .iter()
            .find(|s| s.new_ref.as_deref() == Some(new_ref))
            .map(|s| self.comments_on(s))
            .unwrap_or_default()
    }

    /// "1 added · 1 removed · 1 changed · 2 unchanged", naming only what is there.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = [
            StepChange::Added,
            StepChange::Removed,
            StepChange::Changed,
            StepChange::Unchanged,
        ]
        .into_iter()
        .filter_map(|change| {
            let n = self.diff.count(change);
            (n > 0).then(|| format!("{n} {}", change.label()))
        })
        .collect();
        if self.diff.is_unchanged() {
            format!("No step changed ({})", parts.join(" · "))
        } else {
            parts.join(" · ")
        }
    }
}
