//! `<ApprovedChildren>`: the notice that a plan was approved here, with a link to each child
//! task it filed.

use super::review_state::ReviewState;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

/// Nothing until Approve Plan succeeds here.
#[component]
pub fn ApprovedChildren(state: ReviewState, steps: Memo<Vec<PlanStep>>) -> impl IntoView {
    // The children come back in plan order: each link reads as its step.
    move || {
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
    }
}
