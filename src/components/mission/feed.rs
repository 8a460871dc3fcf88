//! The mission feed: notes and questions from agents and people, newest first. A person sends
//! guidance or answers a question; the text stays when sending fails.

use super::note::Note;
use crate::api;
use crate::state::refresh::Polled;
use crate::state::write::{refused, Write};
use buildd_core::note::{threads, MissionNote, NotesPage};
use leptos::prelude::*;

/// What a person is writing in the feed. Lives above the refreshed list.
#[derive(Clone, Copy)]
pub struct FeedState {
    pub guidance: RwSignal<String>,
    pub send: Write,
    /// The question being answered, and the answer so far.
    pub replying: RwSignal<Option<String>>,
    pub reply: RwSignal<String>,
    /// Shares `send`'s busy flag: one note goes out at a time, guidance or reply.
    pub reply_send: Write,
    /// Pages read past the newest one, oldest last, and where the next one starts.
    pub older: RwSignal<Vec<MissionNote>>,
    pub older_cursor: RwSignal<Option<String>>,
    pub older_done: RwSignal<bool>,
    pub older_read: Write,
}

impl Default for FeedState {
    fn default() -> Self {
        let send = Write::new();
        Self {
            guidance: RwSignal::default(),
            send,
            replying: RwSignal::default(),
            reply: RwSignal::default(),
            reply_send: send.sharing_busy(),
            older: RwSignal::default(),
            older_cursor: RwSignal::default(),
            older_done: RwSignal::default(),
            older_read: Write::new(),
        }
    }
}

#[component]
pub fn Feed(
    notes: Polled<NotesPage>,
    mission_id: String,
    state: FeedState,
    refresh: Callback<()>,
) -> impl IntoView {
    let send = {
        let mission_id = mission_id.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let text = state.guidance.get_untracked().trim().to_string();
            if text.is_empty() {
                return;
            }
            let mission_id = mission_id.clone();
            state.send.send_then_clear(
                state.guidance,
                |c| async move { api::post_note(&c, &mission_id, "guidance", &text).await },
                refused("Not sent"),
                refresh,
            );
        }
    };
    // Once older pages are read, every note the refreshed newest page shows is kept too, so
    // one that slides out of it stays on screen between the newest page and the older ones.
    Effect::new(move |_| {
        if let Some(Ok(page)) = notes.get() {
            if state.older.with_untracked(|o| !o.is_empty()) {
                let mut older = state.older.get_untracked();
                for n in page.notes.iter().rev() {
                    // The newest copy wins: a question answered since shows answered.
                    match older.iter_mut().find(|o| o.id == n.id) {
                        Some(kept) => *kept = n.clone(),
                        None => older.insert(0, n.clone()),
                    }
                }
                older.sort_by(|a, b| b.created_at.cmp(&a.created_at));
                // Only a change re-renders the list, so a reply being typed keeps its focus.
                if state.older.with_untracked(|o| *o != older) {
                    state.older.set(older);
                }
            }
        }
    });
    // The newest page refreshes by itself; older pages are read on request and kept.
    let load_older = {
        let mission_id = mission_id.clone();
        move |_| {
            let cursor = state.older_cursor.get_untracked().or_else(|| {
                notes.with_untracked(|n| match n {
                    Some(Ok(page)) => page.next_cursor.clone(),
                    _ => None,
                })
            });
            let Some(cursor) = cursor else { return };
            let mission_id = mission_id.clone();
            state.older_read.send(
                |c| async move { api::older_notes(&c, &mission_id, &cursor).await },
                |e| format!("Older notes could not be loaded: {e}"),
                move |page| {
                    let newest = notes.with_untracked(|n| match n {
                        Some(Ok(p)) => p.notes.clone(),
                        _ => vec![],
                    });
                    state.older.update(|o| {
                        for n in newest.into_iter().chain(page.notes) {
                            if !o.iter().any(|k| k.id == n.id) {
                                o.push(n);
                            }
                        }
                        o.sort_by(|a, b| b.created_at.cmp(&a.created_at));
                    });
                    state
                        .older_done
                        .set(!page.has_more || page.next_cursor.is_none());
                    state.older_cursor.set(page.next_cursor);
                },
            );
        }
    };
    view! {
        <section class="card" data-testid="feed">
            <h2 class="card__title">"Feed"</h2>
            <form class="form feed__composer" on:submit=send>
                <label for="guidance" class="sr-only">"Guidance for the agents"</label>
                <input
                    id="guidance"
                    placeholder="Send guidance to all agents..."
                    data-testid="guidance-input"
                    prop:value=move || state.guidance.get()
                    on:input=move |ev| state.guidance.set(event_target_value(&ev))
                />
                {move || state.send.error().map(|e| view! { <p class="form__error" role="alert" data-testid="guidance-error">{e}</p> })}
                <div class="actions">
                    <button class="button button--primary" type="submit" data-testid="send-guidance"
                        prop:disabled=move || state.send.busy() || state.guidance.with(|g| g.trim().is_empty())>
                        "Send"
                    </button>
                </div>
            </form>
            {move || match notes.get() {
                None => view! { <p class="muted">"Loading feed..."</p> }.into_any(),
                Some(Err(_)) => view! { <p class="muted">"The feed could not be loaded."</p> }.into_any(),
                Some(Ok(page)) if page.notes.is_empty() => view! {
                    <div class="panel-state panel-state--empty">
                        <p class="panel-state__title">"No feed activity yet"</p>
                        <p class="muted">"Agent decisions, questions, and updates will appear here"</p>
                    </div>
                }
                .into_any(),
                Some(Ok(page)) => {
                    let more = page.has_more && page.next_cursor.is_some();
                    let mut shown = page.notes;
                    // Notes kept from earlier pages, newest first, after the newest page.
                    let older: Vec<_> = state.older.with(|o| {
                        o.iter().filter(|o| !shown.iter().any(|n| n.id == o.id)).cloned().collect()
                    });
                    shown.extend(older);
                    let load_older = load_older.clone();
                    // Replies sit under what they answer.
                    let threads = threads(&shown);
                    view! {
                        <ul class="notes">
                            {threads.into_iter().map(|(n, replies)| view! {
                                <Note note=n mission_id=mission_id.clone() state=state refresh=refresh />
                                {(!replies.is_empty()).then(|| view! {
                                    <li class="note__thread">
                                        <ul class="notes notes--replies" data-testid="note-replies">
                                            {replies.into_iter().map(|r| view! {
                                                <Note note=r mission_id=mission_id.clone() state=state refresh=refresh />
                                            }).collect_view()}
                                        </ul>
                                    </li>
                                })}
                            }).collect_view()}
                        </ul>
                        {move || state.older_read.error().map(|e| view! { <p class="form__error" role="alert" data-testid="older-error">{e}</p> })}
                        {(more && !state.older_done.get()).then(|| view! {
                            <div class="actions">
                                <button class="button" data-testid="older-notes"
                                    prop:disabled=move || state.older_read.busy()
                                    on:click=load_older.clone()>
                                    {move || if state.older_read.busy() { "Loading..." } else { "Show older" }}
                                </button>
                            </div>
                        })}
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
