//! Run a failed task again: it goes back to the queue for the next runner, and its mission
//! is active again. A refusal stays on screen with its reason.

use crate::api;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use leptos::prelude::*;

#[component]
pub fn RetryTask(task_id: String, refresh: Callback<()>) -> impl IntoView {
    let retry = Mutation::request(
        move |c, (): &()| {
            let id = task_id.clone();
            async move {
                api::queue_again(&c, &id).await?;
                refresh.run(());
                Ok(())
            }
        },
        refused("Not queued"),
    );
    view! {
        <div class="actions">
            <button
                class="button button--primary"
                on:click=move |_| retry.dispatch(())
                prop:disabled=move || retry.busy()
                data-testid="retry-task"
            >
                {move || if retry.busy() { "Queuing…" } else { "Run it again" }}
            </button>
        </div>
        <FormError error=move || retry.error() testid="retry-error" />
    }
}
