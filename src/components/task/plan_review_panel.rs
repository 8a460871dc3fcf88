//! The Plan Review Panel: a plan in review, its steps and waves, what approving it will
//! cost, and the two decisions a person makes on it: Approve Plan (children are created) or
//! Reject with feedback, overall and pinned to steps (a revised planning run is filed). A
//! revision is compared with the plan it replaces; once approved, the panel tracks what
//! became of each step.

use super::cost_forecast::CostForecast;
use super::plan_compare::{Comparison, PlanCompare};
use super::plan_tracker::PlanTracker;
use super::plan_waves::PlanWaves;
use super::step_card::StepCard;
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::state::capabilities::use_capabilities;
use crate::state::mutation::Mutation;
use crate::state::rows::{row_memo, unique_keys};
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::forecast::steps_to_cost;
use buildd_core::plan_feedback::{PlanFeedback, StepComment};
use buildd_core::plan_output::{resolve_plan, validate_planning_output, PlanStep, ResolvedPlan};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use serde_json::Value;
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
    fn outgoing(self, steps: &[PlanStep]) -> PlanFeedback {
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

const MOVED_ON: &str = "This plan is no longer in review: it was approved or replaced \
                        meanwhile. Your feedback is kept here; the server will refuse it for \
                        this plan.";

/// What a plan's output comes to.
#[derive(Clone, PartialEq)]
struct Plan {
    summary: String,
    steps: Vec<PlanStep>,
    resolved: Option<ResolvedPlan>,
    warnings: Vec<String>,
    can_approve: bool,
}

fn read_plan(output: &Value) -> Plan {
    let summary = output
        .get("summary")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let (steps, problems, resolved) = match validate_planning_output(output) {
        Ok(plan) => match resolve_plan(&plan.plan) {
            Ok(resolved) => (plan.plan, vec![], Some(resolved)),
            Err(e) => (plan.plan, vec![e], None),
        },
        Err(errors) => (vec![], errors, None),
    };
    let can_approve = problems.is_empty();
    let mut warnings = problems;
    if let Some(r) = &resolved {
        if steps.len() > 1 && r.waves.len() == steps.len() {
            warnings.push(
                "This plan is filed as a chain: only one step can run at a time. Check that \
                 every dependsOn is really needed."
                    .into(),
            );
        }
    }
    Plan {
        summary,
        steps,
        resolved,
        warnings,
        can_approve,
    }
}

#[component]
pub fn PlanReviewPanel(
    /// The planning task whose plan this is.
    plan_id: String,
    #[prop(into)] output: Signal<Value>,
    state: ReviewState,
    /// The plan left review elsewhere while a person was writing feedback on it: the panel
    /// stays, with their text, and says so.
    #[prop(into)]
    moved_on: Signal<bool>,
    /// Its mission: the tasks the approved plan filed, spend and budget.
    mission: Memo<Option<ClientMission>>,
    /// On a revision, what changed since the plan it replaces.
    comparison: Memo<Option<Comparison>>,
) -> impl IntoView {
    let plan = Memo::new(move |_| output.with(read_plan));
    let steps = Memo::new(move |_| plan.with(|p| p.steps.clone()));
    let ready_now = move || {
        plan.with(|p| {
            p.resolved
                .as_ref()
                .map_or(0, |r| r.waves.first().map_or(0, Vec::len))
        })
    };
    let decided = Memo::new(move |_| state.approve.answer().is_some());
    let offered = use_capabilities();
    // Reject opens its form with the cursor in it.
    let feedback_box = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if state.rejecting.get() {
            if let Some(el) = feedback_box.get() {
                let _ = el.focus();
            }
        }
    });
    let error = move || view! { <FormError error=move || state.error() testid="plan-error" /> };
    let send_back = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        state.approve.clear();
        let review = steps.with_untracked(|s| state.outgoing(s));
        if review.feedback.is_empty() {
            state
                .reject
                .fail("Feedback is required: say what the revision should change.".into());
            return;
        }
        state.reject.dispatch(review);
    };
    let writing = Signal::derive(move || state.rejecting.get() && !decided.get());
    let keys =
        Memo::new(move |_| steps.with(|s| unique_keys(s.iter().map(|s| s.step_ref.clone()))));
    let step = move |key: String| {
        let step = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            steps.with(|s| s.get(at).cloned())
        });
        view! { <StepCard step comparison comments=state.comments writing /> }
    };
    let section_class = move || {
        if decided.get() {
            "card plan-review plan-review--decided"
        } else {
            "card plan-review"
        }
    };
    let dispatchable = move || {
        let (count, ready) = (steps.with(Vec::len), ready_now());
        if decided.get() {
            format!("{count} steps filed · {ready} could start at once")
        } else {
            format!("{count} steps · {ready} can start as soon as the plan is approved")
        }
    };
    // The children come back in plan order: each link reads as its step.
    let approved = move || {
        state.approved().map(|children| {
            let links = steps.with(|steps| {
                children
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let name = steps
                            .get(i)
                            .map(|s| s.title.clone())
                            .unwrap_or_else(|| c.chars().take(8).collect());
                        view! {
                            <a href=format!("/tasks/{c}") class="dep-chip">
                                {name}
                            </a>
                        }
                    })
                    .collect_view()
            });
            view! {
                <p class="notice notice--ok" role="status" data-testid="plan-approved">
                    {format!("Plan approved — {} child tasks created: ", children.len())}
                    {links}
                </p>
            }
        })
    };
    let has_comparison = Memo::new(move |_| comparison.with(Option::is_some));
    let compare = move || {
        (has_comparison.get() && !decided.get()).then(|| {
            let comparison = Memo::new(move |_| comparison.get().unwrap_or_default());
            view! { <PlanCompare comparison /> }
        })
    };
    let waves = move || {
        plan.with(|p| {
            p.resolved.clone().map(|resolved| {
                let changes = comparison.with(|c| {
                    c.as_ref().map_or_else(Vec::new, |c| {
                        p.steps.iter().map(|s| c.change_of(&s.step_ref)).collect()
                    })
                });
                view! { <PlanWaves steps=p.steps.clone() resolved changes /> }
            })
        })
    };
    // Once approved, the steps are told by what became of them.
    let body = move || {
        if decided.get() {
            let plan_id = plan_id.clone();
            view! { <PlanTracker plan_id steps mission /> }.into_any()
        } else {
            view! {
                {compare}
                {waves}
                <ol class="step-cards">
                    <For each=move || keys.get() key=String::clone children=step />
                </ol>
            }
            .into_any()
        }
    };
    let comment_count = move || {
        let n = state
            .comments
            .with(|c| c.values().filter(|v| !v.trim().is_empty()).count());
        let how = if offered.has(Extra::PlanStepComments) {
            ""
        } else {
            " This Buildd takes one feedback text: each comment is added to it as a line."
        };
        match n {
            0 => format!("Open a step above to pin a comment to it.{how}"),
            1 => format!("1 step comment goes with it.{how}"),
            n => format!("{n} step comments go with it.{how}"),
        }
    };
    // While feedback is written the bar stops following the page, so no step it would
    // cover is out of reach for a comment.
    let bar_class = move || match (decided.get(), state.rejecting.get()) {
        (true, _) => "decision-bar hidden",
        (false, true) => "decision-bar decision-bar--writing",
        (false, false) => "decision-bar",
    };
    let step_count = Signal::derive(move || steps.with(|s| steps_to_cost(s)));
    view! {
        <section class=section_class data-testid="plan-review">
            <h2 class="card__title">
                {move || if decided.get() { "Plan approved" } else { "Plan in review" }}
            </h2>
            {move || {
                moved_on
                    .get()
                    .then(|| {
                        view! {
                            <p
                                class="notice notice--warn"
                                role="status"
                                data-testid="plan-moved-on"
                            >
                                {MOVED_ON}
                            </p>
                        }
                    })
            }}
            <p class="prewrap">{move || plan.with(|p| p.summary.clone())}</p>
            <p class="muted small" data-testid="plan-dispatchable">
                {dispatchable}
            </p>
            {move || {
                plan.with(|p| {
                    p.warnings
                        .iter()
                        .map(|w| {
                            view! {
                                <p class="notice notice--warn" data-testid="plan-warning">
                                    {w.clone()}
                                </p>
                            }
                        })
                        .collect_view()
                })
            }}
            {approved}
            {body}
            // The decision stays in view while the steps are read.
            <div class=bar_class>
                <CostForecast steps=step_count mission />
                {move || (!state.rejecting.get()).then(error)}
                <div class="actions">
                    <button
                        class="button button--primary"
                        on:click=move |_| {
                            state.reject.clear();
                            state.approve.dispatch(());
                        }
                        prop:disabled=move || state.busy() || !plan.with(|p| p.can_approve)
                        data-testid="approve-plan"
                    >
                        {move || if state.busy() { "Working…" } else { "Approve Plan" }}
                    </button>
                    <button
                        class="button"
                        on:click=move |_| state.rejecting.update(|r| *r = !*r)
                        prop:disabled=move || state.busy()
                        aria-expanded=move || state.rejecting.get().to_string()
                        data-testid="reject-plan"
                    >
                        "Reject"
                    </button>
                </div>
                <form
                    class="form reject-form"
                    class:hidden=move || !state.rejecting.get()
                    on:submit=send_back
                    data-testid="reject-form"
                >
                    <label class="field">
                        <span class="field__label">"What should the revised plan change?"</span>
                        <textarea
                            rows=4
                            node_ref=feedback_box
                            prop:value=state.feedback
                            on:input=move |ev| state.feedback.set(event_target_value(&ev))
                            data-testid="reject-feedback"
                        ></textarea>
                    </label>
                    <p class="muted small" data-testid="step-comment-count">
                        {comment_count}
                    </p>
                    {move || state.rejecting.get().then(error)}
                    <div class="actions">
                        <button
                            class="button button--primary"
                            type="submit"
                            prop:disabled=move || state.busy()
                            data-testid="send-feedback"
                        >
                            "Send feedback and revise"
                        </button>
                    </div>
                </form>
            </div>
        </section>
    }
}
