//! "Message agent": steer a running task's agent, and read what was said so far.

use crate::api;
use crate::components::shared::form_error::FormError;
use crate::format::time_ago_ms;
use crate::state::mutation::Mutation;
use crate::state::rows::{positions, row_at};
use buildd_core::{DeliveryState, InstructionEntry, MessageKind};
use leptos::prelude::*;

/// A message's key: when, who and what.
type Key = (i64, MessageKind, String);

fn key(e: &InstructionEntry) -> Key {
    (e.timestamp, e.kind.clone(), e.message.clone())
}

/// The history of messages, newest first, and a box to send one while the agent runs
/// (`worker` is its id then).
#[component]
pub fn MessageAgent(
    worker: Memo<Option<String>>,
    history: Memo<Vec<InstructionEntry>>,
    on_sent: Callback<()>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let sent = RwSignal::new(false);
    let send = Mutation::send_then_clear(
        text,
        on_sent,
        move |c, (worker, message): &(String, String)| {
            let (worker, message) = (worker.clone(), message.clone());
            async move {
                api::instruct(&c, &worker, &message).await?;
                sent.set(true);
                Ok(())
            }
        },
        |e| e.refusal_if(400),
    );
    let on_send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let message = text.get_untracked().trim().to_string();
        if message.is_empty() {
            send.fail("Write a message first.".into());
            return;
        }
        if let Some(worker) = worker.get_untracked() {
            sent.set(false);
            send.dispatch((worker, message));
        }
    };
    let running = Memo::new(move |_| worker.with(Option::is_some));
    let form = move || {
        running.get().then(|| {
            view! {
                <form class="form" on:submit=on_send>
                    <label for="agent-message">"Message agent"</label>
                    <textarea
                        id="agent-message"
                        rows="3"
                        placeholder="Steer the agent: what to change, what to keep in mind…"
                        prop:value=text
                        on:input=move |ev| text.set(event_target_value(&ev))
                        data-testid="agent-message-input"
                    ></textarea>
                    <FormError error=move || send.error() testid="agent-message-error" />
                    {move || {
                        sent.get()
                            .then(|| {
                                view! {
                                    <p class="notice notice--ok" role="status">
                                        "Sent. The agent receives it with its next update."
                                    </p>
                                }
                            })
                    }}
                    <div class="actions">
                        <button
                            class="button button--primary"
                            type="submit"
                            prop:disabled=move || send.busy()
                            data-testid="agent-message-send"
                        >
                            {move || if send.busy() { "Sending…" } else { "Send" }}
                        </button>
                    </div>
                </form>
            }
        })
    };
    let at = positions(move || history.with(|h| h.iter().map(key).collect()));
    let entry = move |k: Key| {
        let e = row_at(at, k, move |i| history.with(|h| h.get(i).cloned()));
        let line = move || {
            e.with(|e| {
                let who = if e.kind == MessageKind::Response {
                    "Agent"
                } else {
                    "You"
                };
                let state = match &e.delivery_state {
                    Some(DeliveryState::Pending) => " · waiting for the agent's next update",
                    Some(DeliveryState::Delivered) => " · delivered",
                    _ => "",
                };
                format!("{who} · {}{state}", time_ago_ms(e.timestamp))
            })
        };
        view! {
            <li class="message" data-testid="agent-message">
                <span class="muted small">{line}</span>
                <p class="prewrap">{move || e.with(|e| e.message.clone())}</p>
            </li>
        }
    };
    view! {
        <section class="card" data-testid="message-agent">
            <h2 class="card__title">"Messages"</h2>
            {form}
            <ul class="messages">
                <For
                    each=move || history.with(|h| h.iter().rev().map(key).collect::<Vec<_>>())
                    key=Clone::clone
                    children=entry
                />
            </ul>
        </section>
    }
}
