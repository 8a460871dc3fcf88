//! A revised plan's history: which revision it is and, for each earlier one, when it was
//! sent back and with what feedback. Read by walking `previousPlanTaskId` back through the
//! tasks API, as both this server and Buildd record it on each revision's context.

use crate::api::{self, ApiError, Connection};
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::markdown::Markdown;
use crate::format::time_ago;
use crate::state::rows::{row_memo, unique_keys};
use buildd_core::client::ClientTask;
use buildd_core::plan_feedback::{PlanFeedback, StepComment};
use buildd_core::plan_output::{validate_planning_output, PlanStep};
use leptos::prelude::*;
use serde_json::Value;

/// No history is walked further back than this (a loop of ids ends there too).
const MAX_EARLIER: usize = 20;

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

/// Reads the revisions before the one that `first` describes.
pub async fn read_history(c: Connection, first: Replaces) -> Result<History, ApiError> {
    let mut earlier: Vec<Earlier> = Vec::new();
    let mut next = Some(first);
    while let Some(link) = next.take() {
        if earlier.len() >= MAX_EARLIER || earlier.iter().any(|e| e.task_id == link.task_id) {
            break;
        }
        let task = api::task(&c, &link.task_id).await?;
        // This server also records the rejection on the plan it sent back.
        let rejection = task.context.as_ref().and_then(|c| c.plan_rejection.clone());
        let (rejected_at, rejected_with, rejected_comments) = match rejection {
            Some(r) => (r.rejected_at, r.feedback, r.step_comments),
            None => (None, String::new(), Vec::new()),
        };
        let steps = task
            .result
            .as_ref()
            .and_then(|r| r.structured_output.as_ref())
            .map(steps_of)
            .unwrap_or_default();
        earlier.push(Earlier {
            task_id: task.id.clone(),
            sent_back_at: rejected_at.or(link.filed_at),
            feedback: if link.feedback.is_empty() && link.step_comments.is_empty() {
                rejected_with
            } else {
                link.feedback
            },
            step_comments: if link.step_comments.is_empty() {
                rejected_comments
            } else {
                link.step_comments
            },
            steps,
        });
        next = Replaces::of(&task);
    }
    earlier.reverse();
    Ok(History { earlier })
}

#[component]
fn EarlierRevision(earlier: Memo<Earlier>, number: Memo<usize>) -> impl IntoView {
    let feedback = Memo::new(move |_| earlier.with(|e| e.feedback.clone()));
    let comments = move || {
        earlier.with(|e| {
            e.step_comments
                .iter()
                .map(|c| {
                    view! {
                        <li data-testid="earlier-step-comment">
                            <code>{c.step_ref.clone()}</code>
                            ": "
                            <InlineMarkdown source=c.comment.clone() />
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <li class="revision-history__item" data-testid="revision-earlier">
            <p>
                <a href=move || {
                    format!("/tasks/{}", earlier.with(|e| e.task_id.clone()))
                }>{move || format!("Revision {}", number.get())}</a>
                {move || {
                    earlier
                        .with(|e| match time_ago(e.sent_back_at.as_deref()) {
                            when if when.is_empty() => {
                                " was sent back with the feedback:".to_string()
                            }
                            when => format!(" was sent back {when} with the feedback:"),
                        })
                }}
            </p>
            <blockquote
                class="revision-history__feedback"
                class:hidden=move || feedback.with(|f| f.is_empty())
                data-testid="earlier-feedback"
            >
                <Markdown source=feedback />
            </blockquote>
            <ul
                class="plain small"
                class:hidden=move || earlier.with(|e| e.step_comments.is_empty())
            >
                {comments}
            </ul>
        </li>
    }
}

/// "Revision N" and the revisions before it, oldest first.
#[component]
pub fn RevisionHistory(history: Memo<History>) -> impl IntoView {
    let keys = Memo::new(move |_| {
        history.with(|h| unique_keys(h.earlier.iter().map(|e| e.task_id.clone())))
    });
    let row = move |key: String| {
        let at = Memo::new(move |_| keys.with(|k| k.iter().position(|k| *k == key)));
        let earlier = row_memo(move || {
            let at = at.get()?;
            history.with(|h| h.earlier.get(at).cloned())
        });
        let number = Memo::new(move |_| at.get().unwrap_or(0) + 1);
        view! { <EarlierRevision earlier number /> }
    };
    view! {
        <section class="card" data-testid="revision-history">
            <h2 class="card__title" data-testid="revision-number">
                {move || format!("Revision {}", history.with(|h| h.number()))}
            </h2>
            <p class="muted small">
                "This plan revises one a reviewer sent back. Earlier revisions, oldest first:"
            </p>
            <ol class="revision-history">
                <For each=move || keys.get() key=String::clone children=row />
            </ol>
        </section>
    }
}
