//! Run a failed task again: it goes back to the queue for the next runner, and its mission
//! is active again. The state lives above the refreshed task view, so a refusal stays on
//! screen with its reason.

use crate::api;
use crate::state::connection::Connection;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::json;

#[derive(Clone, Copy)]
pub struct RetryState {
    pub busy: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
}

impl RetryState {
    pub fn new() -> Self {
        Self {
            busy: RwSignal::new(false),
            error: RwSignal::new(None),
        }
    }

    /// As new, for another task.
    pub fn reset(&self) {
        self.busy.set(false);
        self.error.set(None);
    }
}

impl Default for RetryState {
    fn default() -> Self {
        Self::new()
    }
}

#[component]
pub fn RetryTask(
    connection: Connection,
    task_id: String,
    state: RetryState,
    refresh: Callback<()>,
) -> impl IntoView {
    let retry = move |_| {
        let (connection, task_id) = (connection.clone(), task_id.clone());
        state.busy.set(true);
        state.error.set(None);
        spawn_local(async move {
            match api::update_task(&connection, &task_id, json!({"status": "pending"})).await {
                Ok(()) => refresh.run(()),
                Err(e) => state
                    .error
                    .set(Some(format!("Not queued: {}", e.refusal()))),
            }
            state.busy.set(false);
        });
    };
    view! {
        <div class="actions">
            <button
                class="button button--primary"
                on:click=retry
                prop:disabled=move || state.busy.get()
                data-testid="retry-task"
            >
                {move || if state.busy.get() { "Queuing…" } else { "Run it again" }}
            </button>
        </div>
        {move || state.error.get().map(|e| view! {
            <p class="form__error" role="alert" data-testid="retry-error">{e}</p>
        })}
    }
}
