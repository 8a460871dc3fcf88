//! `ReviewState`: what a person has written on a plan in review, and the Approve and Reject
//! requests that carry their decision.

use crate::api;
use crate::state::capabilities::use_capabilities;
use crate::state::mutation::Mutation;
use buildd_core::capabilities::Extra;
use buildd_core::plan_feedback::{PlanFeedback, StepComment};
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use std::collections::BTreeMap;

/// A person's review of a plan. Made by the task's view, which also places the panel by it
/// (first while the plan is in review, and kept once decided or while feedback is written).
#[derive(Clone, Copy)]
pub struct ReviewState {
    pub feedback: RwSignal<String>,
    /// Comments pinned to steps, by step ref; a step with an entry has its box open.
    pub comments: RwSignal<BTreeMap<String, String>>,
    pub rejecting: RwSignal<bool>,
    /// Answers the children created.
    pub approve: Mutation<(), Vec<String>>,
    /// Opens the revision once it is filed.
    pub reject: Mutation<PlanFeedback>,
}

impl ReviewState {
    /// The review of planning task `task_id`; `on_approved` shows the children at once.
    pub fn new(task_id: String, on_approved: Callback<()>) -> Self {
        let feedback = RwSignal::new(String::new());
        let comments = RwSignal::new(BTreeMap::new());
        let rejecting = RwSignal::new(false);
        let offered = use_capabilities();
        let id = task_id.clone();
        let approve = Mutation::request(
            move |c, (): &()| {
                let id = id.clone();
                async move {
                    let done = api::approve_plan(&c, &id).await?;
                    on_approved.run(());
                    Ok(done.tasks)
                }
            },
            |e| e.refusal_if(409),
        );
        let navigate = use_navigate();
        let reject = Mutation::request(
            move |c, review: &PlanFeedback| {
                let (id, review, navigate) = (task_id.clone(), review.clone(), navigate.clone());
                // Buildd takes one text: the comments go inside it.
                let structured = offered.has_untracked(Extra::PlanStepComments);
                async move {
                    let revision = api::reject_plan(&c, &id, &review, structured).await?;
                    feedback.set(String::new());
                    comments.set(BTreeMap::new());
                    rejecting.set(false);
                    navigate(&format!("/tasks/{}", revision.task_id), Default::default());
                    Ok(())
                }
            },
            |e| e.refusal_if(409),
        );
        Self {
            feedback,
            comments,
            rejecting,
            approve,
            reject,
        }
    }

    /// The children, once approved here (tracked).
    pub fn approved(&self) -> Option<Vec<String>> {
        self.approve.answer()
    }

    /// Approve or Reject is on its way (tracked).
    pub fn busy(&self) -> bool {
        self.approve.busy() || self.reject.busy()
    }

    /// Whether anything is written that a send would carry (tracked).
    pub fn has_writing(&self) -> bool {
        !self.feedback.with(|f| f.trim().is_empty())
            || self
                .comments
                .with(|c| c.values().any(|v| !v.trim().is_empty()))
    }

    /// The feedback to send for a plan of `steps`: the comments in step order, blank ones
    /// and any on a step the plan no longer has left out.
    pub fn outgoing(self, steps: &[PlanStep]) -> PlanFeedback {
        let comments = self.comments.get_untracked();
        PlanFeedback {
            feedback: self.feedback.get_untracked().trim().to_string(),
            step_comments: steps
                .iter()
                .filter_map(|s| {
                    let text = comments.get(&s.step_ref)?.trim();
                    (!text.is_empty()).then(|| StepComment {
                        step_ref: s.step_ref.clone(),
                        comment: text.to_string(),
                    })
                })
                .collect(),
        }
    }

    /// Why the last decision failed (tracked): each decision clears the other's.
    pub fn error(&self) -> Option<String> {
        self.approve.error().or_else(|| self.reject.error())
    }
}
