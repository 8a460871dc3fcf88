//! Run a failed task again: it goes back to the queue for the next runner, and its mission
//! is active again. The state lives above the refreshed task view, so a refusal stays on
//! screen with its reason.

use crate::api;
use crate::state::write::{refused, Write};
use leptos::prelude::*;

#[component]
pub fn RetryTask(task_id: String, state: Write, refresh: Callback<()>) -> impl IntoView {
    let retry = move |_| {
        let task_id = task_id.clone();
        state.send(
            |c| async move { api::queue_again(&c, &task_id).await },
            refused("Not queued"),
            move |()| refresh.run(()),
        );
    };
    view! {
        <div class="actions">
            <button
                class="button button--primary"
                on:click=retry
                prop:disabled=move || state.busy()
                data-testid="retry-task"
            >
                {move || if state.busy() { "Queuing…" } else { "Run it again" }}
            </button>
        </div>
        {move || state.error().map(|e| view! {
            <p class="form__error" role="alert" data-testid="retry-error">{e}</p>
        })}
    }
}
