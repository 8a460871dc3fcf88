//! `<TaskOutcome>`: what a task came to: why it failed, the last failure of a task queued
//! again, its summary, or what it is doing instead of a result.

use super::run_lines::no_result;
use crate::components::shared::markdown::Markdown;
use buildd_core::client::ClientTask;
use buildd_core::TaskStatus;
use leptos::prelude::*;

#[component]
pub fn TaskOutcome(task: Memo<ClientTask>) -> impl IntoView {
    let failed = Memo::new(move |_| task.with(|t| t.status == TaskStatus::Failed));
    let error = Memo::new(move |_| task.with(|t| t.result.as_ref().and_then(|r| r.error.clone())));
    let summary =
        Memo::new(move |_| task.with(|t| t.result.as_ref().and_then(|r| r.summary.clone())));
    let outcome = move || match (failed.get(), error.get()) {
        (true, Some(e)) => view! {
            <p class="notice notice--danger" role="alert" data-testid="task-error">
                <strong>"Failed: "</strong>
                {e}
            </p>
        }
        .into_any(),
        // Queued again after a failure: the reason stays in view.
        (false, Some(e)) => view! {
            <p class="notice notice--muted" data-testid="task-last-error">
                {format!("The last run failed: {e}")}
            </p>
        }
        .into_any(),
        _ => ().into_any(),
    };
    let summary = move || match summary.get() {
        Some(s) => view! {
            <div data-testid="task-summary">
                <Markdown source=s />
            </div>
        }
        .into_any(),
        None if failed.get() && error.with(Option::is_some) => ().into_any(),
        None => view! {
            <p class="muted" data-testid="task-no-result">
                {move || task.with(|t| no_result(&t.status))}
            </p>
        }
        .into_any(),
    };
    view! {
        {outcome}
        {summary}
    }
}
