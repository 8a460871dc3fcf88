//! "Message agent": steer a running task's agent, and read what was said so far.

use crate::api::{self, ApiError};
use crate::format::time_ago_ms;
use crate::state::connection::Connection;
use buildd_core::InstructionEntry;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The message being written. Lives above the refreshed view, so a refresh or a failed
/// send never loses it.
#[derive(Clone, Copy)]
pub struct MessageDraft {
    pub text: RwSignal<String>,
    pub busy: RwSignal<bool>,
    pub error: RwSignal<Option<String>>,
    pub sent: RwSignal<bool>,
}

impl MessageDraft {
    pub fn new() -> Self {
        Self {
            text: RwSignal::new(String::new()),
            busy: RwSignal::new(false),
            error: RwSignal::new(None),
            sent: RwSignal::new(false),
        }
    }

    /// Empty again, for another task.
    pub fn reset(&self) {
        self.text.set(String::new());
        self.busy.set(false);
        self.error.set(None);
        self.sent.set(false);
    }
}

impl Default for MessageDraft {
    fn default() -> Self {
        Self::new()
    }
}

fn send_error(e: &ApiError) -> String {
    match e {
        ApiError::Status(400, m) => m.clone(),
        other => other.to_string(),
    }
}

/// The history of messages, and a box to send one when the agent is still running
/// (`worker` is its id then).
#[component]
pub fn MessageAgent(
    connection: Connection,
    worker: Option<String>,
    history: Vec<InstructionEntry>,
    draft: MessageDraft,
    on_sent: Callback<()>,
) -> impl IntoView {
    let entries = history
        .into_iter()
        .rev()
        .map(|e| {
            let who = if e.kind == "response" { "Agent" } else { "You" };
            let state = match e.delivery_state.as_deref() {
                Some("pending") => " · waiting for the agent's next update",
                Some("delivered") => " · delivered",
                _ => "",
            };
            view! {
                <li class="message" data-testid="agent-message">
                    <span class="muted small">{format!("{who} · {}{state}", time_ago_ms(e.timestamp))}</span>
                    <p class="prewrap">{e.message}</p>
                </li>
            }
        })
        .collect_view();
    let form = worker.map(|worker| {
        let send = move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let message = draft.text.get_untracked().trim().to_string();
            if message.is_empty() {
                draft.error.set(Some("Write a message first.".into()));
                return;
            }
            let (connection, worker) = (connection.clone(), worker.clone());
            draft.busy.set(true);
            draft.error.set(None);
            draft.sent.set(false);
            spawn_local(async move {
                match api::instruct(&connection, &worker, &message).await {
                    Ok(_) => {
                        draft.text.set(String::new());
                        draft.sent.set(true);
                        on_sent.run(());
                    }
                    Err(e) => draft.error.set(Some(send_error(&e))),
                }
                draft.busy.set(false);
            });
        };
        view! {
            <form class="form" on:submit=send>
                <label for="agent-message">"Message agent"</label>
                <textarea
                    id="agent-message"
                    rows="3"
                    placeholder="Steer the agent: what to change, what to keep in mind…"
                    prop:value=move || draft.text.get()
                    on:input=move |ev| draft.text.set(event_target_value(&ev))
                    data-testid="agent-message-input"
                ></textarea>
                {move || draft.error.get().map(|e| view! { <p class="form__error" role="alert" data-testid="agent-message-error">{e}</p> })}
                {move || draft.sent.get().then(|| view! {
                    <p class="notice notice--ok" role="status">"Sent. The agent receives it with its next update."</p>
                })}
                <div class="actions">
                    <button class="button button--primary" type="submit" prop:disabled=move || draft.busy.get() data-testid="agent-message-send">
                        {move || if draft.busy.get() { "Sending…" } else { "Send" }}
                    </button>
                </div>
            </form>
        }
    });
    view! {
        <section class="card" data-testid="message-agent">
            <h2 class="card__title">"Messages"</h2>
            {form}
            <ul class="messages">{entries}</ul>
        </section>
    }
}
