//! "Message agent": steer a running task's agent, and read what was said so far.

use crate::api;
use crate::format::time_ago_ms;
use crate::state::write::Write;
use buildd_core::InstructionEntry;
use leptos::prelude::*;

/// The message being written. Lives above the refreshed view, so a refresh or a failed
/// send never loses it.
#[derive(Clone, Copy, Default)]
pub struct MessageDraft {
    pub text: RwSignal<String>,
    pub send: Write,
    pub sent: RwSignal<bool>,
}

impl MessageDraft {
    /// Empty again, for another task.
    pub fn reset(&self) {
        self.text.set(String::new());
        self.send.reset();
        self.sent.set(false);
    }
}

/// The history of messages, and a box to send one when the agent is still running
/// (`worker` is its id then).
#[component]
pub fn MessageAgent(
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
    let sent = Callback::new(move |()| {
        draft.sent.set(true);
        on_sent.run(());
    });
    let form = worker.map(|worker| {
        let send = move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let message = draft.text.get_untracked().trim().to_string();
            if message.is_empty() {
                draft.send.fail("Write a message first.".into());
                return;
            }
            let worker = worker.clone();
            draft.sent.set(false);
            draft.send.send_then_clear(
                draft.text,
                |c| async move { api::instruct(&c, &worker, &message).await },
                |e| e.refusal_if(400),
                sent,
            );
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
                {move || draft.send.error().map(|e| view! { <p class="form__error" role="alert" data-testid="agent-message-error">{e}</p> })}
                {move || draft.sent.get().then(|| view! {
                    <p class="notice notice--ok" role="status">"Sent. The agent receives it with its next update."</p>
                })}
                <div class="actions">
                    <button class="button button--primary" type="submit" prop:disabled=move || draft.send.busy() data-testid="agent-message-send">
                        {move || if draft.send.busy() { "Sending…" } else { "Send" }}
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
