//! A plan's history: what a revision says of the plan it replaces, and the earlier
//! revisions, each with how it was sent back.

use buildd_core::client::ClientTask;
use buildd_core::plan_feedback::{PlanFeedback, StepComment};
use buildd_core::plan_output::{validate_planning_output, PlanStep};
use serde_json::Value;

/// No history is walked further back than this (a loop of ids ends there too).
pub const MAX_EARLIER: usize = 20;

/// A plan's steps as its output lists them; a plan that fails the schema still shows the
/// steps it has.
pub fn steps_of(output: &Value) -> Vec<PlanStep> {
    validate_planning_output(output)
        .map(|p| p.plan)
        .unwrap_or_else(|_| {
            output
                .get("plan")
                .and_then(|p| serde_json::from_value(p.clone()).ok())
                .unwrap_or_default()
        })
}

/// What a revision's context says of the plan it replaces.
#[derive(Clone, Debug, PartialEq)]
pub struct Replaces {
    pub task_id: String,
    pub feedback: String,
    pub step_comments: Vec<StepComment>,
    /// When the revision was filed, which is when the plan before it was sent back.
    pub filed_at: Option<String>,
}

impl Replaces {
    /// The plan `task` revises, if it is a revision. Buildd keeps step comments inside its
    /// feedback text, one line a step: they are read back from there.
    pub fn of(task: &ClientTask) -> Option<Self> {
        let context = task.context.as_ref()?;
        let text = context.plan_feedback.clone().unwrap_or_default();
        let (feedback, step_comments) = if context.plan_step_comments.is_empty() {
            let read = PlanFeedback::from_text(&text);
            (read.feedback, read.step_comments)
        } else {
            (text, context.plan_step_comments.clone())
        };
        Some(Self {
            task_id: context.previous_plan_task_id.clone()?,
            feedback,
            step_comments,
            filed_at: task.created_at.clone(),
        })
    }
}

/// An earlier revision, and how it was sent back.
#[derive(Clone, Debug, PartialEq)]
pub struct Earlier {
    pub task_id: String,
    pub sent_back_at: Option<String>,
    pub feedback: String,
    pub step_comments: Vec<StepComment>,
    pub steps: Vec<PlanStep>,
}

/// The revisions before a plan, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    pub earlier: Vec<Earlier>,
}

impl History {
    /// This plan's number: "Revision 2" follows one rejected plan.
    pub fn number(&self) -> usize {
        self.earlier.len() + 1
    }
}
