//! `<Steering>`: the messages sent to a task's agent, and a box to send one while it runs.

use crate::components::task::message_agent::MessageAgent;
use buildd_core::TaskMessages;
use leptos::prelude::*;

/// Shown while the task has a worker that runs or has been messaged.
#[component]
pub fn Steering(
    messages: Memo<Option<TaskMessages>>,
    /// The task is assigned or in progress.
    running: Memo<bool>,
    refresh: Callback<()>,
) -> impl IntoView {
    let steering = Memo::new(move |_| {
        messages.with(|m| {
            m.as_ref()
                .is_some_and(|m| m.worker_id.is_some() && (running.get() || !m.messages.is_empty()))
        })
    });
    move || {
        steering.get().then(|| {
            let worker = Memo::new(move |_| {
                messages
                    .with(|m| m.as_ref().and_then(|m| m.worker_id.clone()))
                    .filter(|_| running.get())
            });
            let history = Memo::new(move |_| {
                messages.with(|m| m.as_ref().map(|m| m.messages.clone()).unwrap_or_default())
            });
            view! { <MessageAgent worker history on_sent=refresh /> }
        })
    }
}
