//! The Plan Review Panel: a plan in review, its steps and waves, and the two decisions a
//! person makes on it: Approve Plan (children are created) or Reject with feedback (a
//! revised planning run is filed).

use super::plan_waves::PlanWaves;
use super::step_card::StepCard;
use crate::api;
use crate::state::write::Write;
use buildd_core::plan_output::{resolve_plan, validate_planning_output};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use serde_json::Value;

/// What a person is doing in the panel. Lives above the refreshed view, so typed feedback
/// survives a refresh and a failed submit.
#[derive(Clone, Copy, Default)]
pub struct ReviewState {
    pub feedback: RwSignal<String>,
    pub rejecting: RwSignal<bool>,
    /// Approve and Reject alike.
    pub decide: Write,
    pub approved: RwSignal<Option<Vec<String>>>,
}

impl ReviewState {
    /// As new, for another plan.
    pub fn reset(&self) {
        self.feedback.set(String::new());
        self.rejecting.set(false);
        self.decide.reset();
        self.approved.set(None);
    }
}

#[component]
pub fn PlanReviewPanel(
    task_id: String,
    output: Value,
    state: ReviewState,
    /// Runs once the plan is approved, so the page shows the children at once.
    #[prop(optional)]
    on_approved: Option<Callback<()>>,
    /// The plan left review elsewhere while a person was writing feedback on it: the panel
    /// stays, with their text, and says so.
    #[prop(optional)]
    moved_on: bool,
) -> impl IntoView {
    let summary = output
        .get("summary")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let (steps, problems, resolved) = match validate_planning_output(&output) {
        Ok(plan) => match resolve_plan(&plan.plan) {
            Ok(resolved) => (plan.plan, vec![], Some(resolved)),
            Err(e) => (plan.plan, vec![e], None),
        },
        Err(errors) => (vec![], errors, None),
    };
    let mut warnings = problems.clone();
    if let Some(r) = &resolved {
        if steps.len() > 1 && r.waves.len() == steps.len() {
            warnings.push(
                "This plan is filed as a chain: only one step can run at a time. Check that \
                 every dependsOn is really needed."
                    .into(),
            );
        }
    }
    let can_approve = problems.is_empty();
    let ready_now = resolved
        .as_ref()
        .map_or(0, |r| r.waves.first().map_or(0, Vec::len));
    let step_count = steps.len();
    // The children come back in plan order: each link reads as its step.
    let titles: Vec<String> = steps.iter().map(|s| s.title.clone()).collect();
    let navigate = use_navigate();
    // Reject opens its form with the cursor in it.
    let feedback_box = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if state.rejecting.get() {
            if let Some(el) = feedback_box.get() {
                let _ = el.focus();
            }
        }
    });
    let error = move || {
        state
            .decide
            .error()
            .map(|e| view! { <p class="form__error" role="alert" data-testid="plan-error">{e}</p> })
    };

    let approve = {
        let task_id = task_id.clone();
        move |_| {
            let task_id = task_id.clone();
            state.decide.send(
                |c| async move { api::approve_plan(&c, &task_id).await },
                |e| e.refusal_if(409),
                move |done| {
                    state.approved.set(Some(done.tasks));
                    if let Some(refresh) = on_approved {
                        refresh.run(());
                    }
                },
            );
        }
    };
    let reject = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let feedback = state.feedback.get_untracked().trim().to_string();
        if feedback.is_empty() {
            state
                .decide
                .fail("Feedback is required: say what the revision should change.".into());
            return;
        }
        let (task_id, navigate) = (task_id.clone(), navigate.clone());
        state.decide.send(
            |c| async move { api::reject_plan(&c, &task_id, &feedback).await },
            |e| e.refusal_if(409),
            move |revision| {
                state.feedback.set(String::new());
                state.rejecting.set(false);
                navigate(&format!("/tasks/{}", revision.task_id), Default::default());
            },
        );
    };

    view! {
        <section
            class="card plan-review"
            class:plan-review--decided=move || state.approved.get().is_some()
            data-testid="plan-review"
        >
            <h2 class="card__title">
                {move || if state.approved.get().is_some() { "Plan approved" } else { "Plan in review" }}
            </h2>
            {moved_on.then(|| view! {
                <p class="notice notice--warn" role="status" data-testid="plan-moved-on">
                    "This plan is no longer in review: it was approved or replaced meanwhile. \
                     Your feedback is kept here; the server will refuse it for this plan."
                </p>
            })}
            <p class="prewrap">{summary}</p>
            <p class="muted small" data-testid="plan-dispatchable">
                {move || if state.approved.get().is_some() {
                    format!("{step_count} steps filed · {ready_now} could start at once")
                } else {
                    format!("{step_count} steps · {ready_now} can start as soon as the plan is approved")
                }}
            </p>
            {warnings
                .into_iter()
                .map(|w| view! { <p class="notice notice--warn" data-testid="plan-warning">{w}</p> })
                .collect_view()}
            {resolved.map(|r| view! { <PlanWaves steps=steps.clone() resolved=r /> })}
            <ol class="step-cards">
                {steps.into_iter().map(|s| view! { <StepCard step=s /> }).collect_view()}
            </ol>
            {move || {
                state
                    .approved
                    .get()
                    .map(|children| {
                        view! {
                            <p class="notice notice--ok" role="status" data-testid="plan-approved">
                                {format!("Plan approved — {} child tasks created: ", children.len())}
                                {children
                                    .iter()
                                    .enumerate()
                                    .map(|(i, c)| {
                                        let name = titles
                                            .get(i)
                                            .cloned()
                                            .unwrap_or_else(|| c.chars().take(8).collect());
                                        view! { <a href=format!("/tasks/{c}") class="dep-chip">{name}</a> }
                                    })
                                    .collect_view()}
                            </p>
                        }
                    })
            }}
            // The decision stays in view while the steps are read.
            <div class="decision-bar" class:hidden=move || state.approved.get().is_some()>
            {move || (!state.rejecting.get()).then(error)}
            <div class="actions">
                <button
                    class="button button--primary"
                    on:click=approve
                    prop:disabled=move || state.decide.busy() || !can_approve
                    data-testid="approve-plan"
                >
                    {move || if state.decide.busy() { "Working…" } else { "Approve Plan" }}
                </button>
                <button
                    class="button"
                    on:click=move |_| state.rejecting.update(|r| *r = !*r)
                    prop:disabled=move || state.decide.busy()
                    data-testid="reject-plan"
                >
                    "Reject"
                </button>
            </div>
            <form
                class="form reject-form"
                class:hidden=move || !state.rejecting.get()
                on:submit=reject
                data-testid="reject-form"
            >
                <label class="field">
                    <span class="field__label">"What should the revised plan change?"</span>
                    <textarea
                        rows=4
                        node_ref=feedback_box
                        prop:value=move || state.feedback.get()
                        on:input=move |ev| state.feedback.set(event_target_value(&ev))
                        data-testid="reject-feedback"
                    ></textarea>
                </label>
                {move || state.rejecting.get().then(error)}
                <div class="actions">
                    <button class="button button--primary" type="submit" prop:disabled=move || state.decide.busy() data-testid="send-feedback">
                        "Send feedback and revise"
                    </button>
                </div>
            </form>
            </div>
        </section>
    }
}
