//! The banner at the top of a planning task's page: where its plan is in its life.

use buildd_core::plan_phase::PlanPhase;
use leptos::prelude::*;

#[component]
pub fn PlanBanner(phase: PlanPhase) -> impl IntoView {
    let (tone, text, link): (&str, String, Option<(String, &str)>) = match phase {
        PlanPhase::WaitingForWorker => (
            "info",
            "Waiting for a worker: the planning agent will create a structured plan once a \
             runner picks this up."
                .into(),
            None,
        ),
        PlanPhase::Generating => ("info", "Agent is generating a plan…".into(), None),
        PlanPhase::InReview => (
            "warn",
            "Plan in review: nothing runs until a person approves it or sends it back.".into(),
            None,
        ),
        PlanPhase::Approved { children } => (
            "ok",
            format!(
                "Plan approved — {children} child {} created",
                if children == 1 { "task" } else { "tasks" }
            ),
            None,
        ),
        PlanPhase::Rejected { feedback, revision } => (
            "muted",
            format!("Plan rejected with feedback: “{feedback}”. "),
            revision.map(|r| (format!("/tasks/{r}"), "Open the revised plan")),
        ),
        PlanPhase::Replaced => (
            "muted",
            "A newer planning run replaced this plan before it was reviewed.".into(),
            None,
        ),
        PlanPhase::NoSteps => (
            "muted",
            "The organizer finished without steps: there was nothing to dispatch.".into(),
            None,
        ),
        PlanPhase::Failed { error } => (
            "danger",
            match error {
                Some(e) => format!("Planning failed: {e}"),
                None => "Planning failed.".into(),
            },
            None,
        ),
        PlanPhase::Cancelled => ("muted", "This planning run was cancelled.".into(), None),
    };
    view! {
        <p class=format!("notice notice--{tone}") role="status" data-testid="plan-banner">
            {text}
            {link
                .map(|(href, label)| {
                    view! {
                        <a href=href data-testid="plan-revision-link">
                            {label}
                        </a>
                    }
                })}
        </p>
    }
}
