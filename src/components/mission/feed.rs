//! The mission feed: notes and questions from agents and people, newest first, replies under
//! what they answer. A person sends guidance or answers a question; the text stays when
//! sending fails. One note goes out at a time, guidance or reply.

use super::note::{Note, Reply};
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::components::shared::polled::Polled;
use crate::state::mutation::{refused, Mutation};
use crate::state::refresh::PolledRead;
use crate::state::rows::row_memo;
use buildd_core::note::{threads, MissionNote, NotesPage};
use leptos::prelude::*;
use std::sync::Arc;

/// The newest page's notes and, once older pages are read, those kept from them: newest
/// first, each note once, the newest copy of each (a question answered since shows so).
fn merged(newest: &[MissionNote], older: &[MissionNote]) -> Vec<MissionNote> {
    let mut shown = newest.to_vec();
    shown.extend(
        older
            .iter()
            .filter(|o| !newest.iter().any(|n| n.id == o.id))
            .cloned(),
    );
    shown
}

#[component]
pub fn Feed(
    notes: PolledRead<NotesPage>,
    mission_id: String,
    refresh: Callback<()>,
) -> impl IntoView {
    let guidance = RwSignal::new(String::new());
    let send = {
        let mission_id = mission_id.clone();
        Mutation::send_then_clear(
            guidance,
            refresh,
            move |c, text: &String| {
                let (mission_id, text) = (mission_id.clone(), text.clone());
                async move { api::post_note(&c, &mission_id, "guidance", &text).await }
            },
            refused("Not sent"),
        )
    };
    let replying = RwSignal::new(None::<String>);
    let reply_text = RwSignal::new(String::new());
    let reply = {
        let mission_id = mission_id.clone();
        Mutation::request(
            move |c, (id, text): &(String, String)| {
                let (mission_id, id, text) = (mission_id.clone(), id.clone(), text.clone());
                async move {
                    api::reply_note(&c, &mission_id, &id, &text).await?;
                    replying.set(None);
                    reply_text.set(String::new());
                    refresh.run(());
                    Ok(())
                }
            },
            refused("Not sent"),
        )
    };
    let busy = Signal::derive(move || send.busy() || reply.busy());
    let on_send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = guidance.get_untracked().trim().to_string();
        if !text.is_empty() {
            send.dispatch(text);
        }
    };
    // Pages read past the newest one, newest first, and where the next one starts.
    let older = RwSignal::new(Vec::<MissionNote>::new());
    let older_cursor = RwSignal::new(None::<String>);
    let older_done = RwSignal::new(false);
    let read_older = {
        let mission_id = mission_id.clone();
        Mutation::request(
            move |c, cursor: &String| {
                let (mission_id, cursor) = (mission_id.clone(), cursor.clone());
                async move {
                    let page = api::older_notes(&c, &mission_id, &cursor).await?;
                    let newest = notes.with_data(|p| p.notes.clone()).unwrap_or_default();
                    older.update(|o| {
                        for n in newest.into_iter().chain(page.notes) {
                            if !o.iter().any(|k| k.id == n.id) {
                                o.push(n);
                            }
                        }
                        o.sort_by(|a, b| b.created_at.cmp(&a.created_at));
                    });
                    older_done.set(!page.has_more || page.next_cursor.is_none());
                    older_cursor.set(page.next_cursor);
                    Ok(())
                }
            },
            |e| format!("Older notes could not be loaded: {e}"),
        )
    };
    // Once older pages are read, every note the refreshed newest page shows is kept too, so
    // one that slides out of it stays on screen between the newest page and the older ones.
    Effect::new(move |_| {
        let Some(page) = notes.with_data(|p| p.notes.clone()) else {
            return;
        };
        if older.with_untracked(Vec::is_empty) {
            return;
        }
        let mut kept = older.get_untracked();
        for n in page.iter().rev() {
            // The newest copy wins: a question answered since shows answered.
            match kept.iter_mut().find(|o| o.id == n.id) {
                Some(k) => *k = n.clone(),
                None => kept.insert(0, n.clone()),
            }
        }
        kept.sort_by(|a, b| b.created_at.cmp(&a.created_at));
        if older.with_untracked(|o| *o != kept) {
            older.set(kept);
        }
    });
    // The newest page refreshes by itself; older pages are read on request and kept.
    let load_older = move |_| {
        let cursor = older_cursor.get_untracked().or_else(|| {
            notes
                .value
                .with_untracked(|n| n.as_ref()?.as_ref().ok()?.next_cursor.clone())
        });
        if let Some(cursor) = cursor {
            read_older.dispatch(cursor);
        }
    };
    let older_label = move || {
        if read_older.busy() {
            "Loading..."
        } else {
            "Show older"
        }
    };
    let reply = Reply {
        mission_id,
        busy,
        replying,
        text: reply_text,
        send: reply,
    };
    let list = move |page: Memo<Arc<NotesPage>>| {
        let shown = Memo::new(move |_| page.with(|p| older.with(|o| merged(&p.notes, o))));
        // Each thread's note and its replies, by id: replies sit under what they answer.
        let threads = Memo::new(move |_| {
            shown.with(|s| {
                threads(s)
                    .into_iter()
                    .map(|(n, replies)| {
                        (n.id, replies.into_iter().map(|r| r.id).collect::<Vec<_>>())
                    })
                    .collect::<Vec<_>>()
            })
        });
        let note = move |id: String| {
            row_memo(move || shown.with(|s| s.iter().find(|n| n.id == id).cloned()))
        };
        let more = Memo::new(move |_| {
            page.with(|p| p.has_more && p.next_cursor.is_some()) && !older_done.get()
        });
        let empty = Memo::new(move |_| page.with(|p| p.notes.is_empty()));
        let reply = reply.clone();
        let thread = move |id: String| {
            let replies = {
                let id = id.clone();
                Memo::new(move |_| {
                    threads.with(|t| {
                        t.iter()
                            .find(|(root, _)| *root == id)
                            .map(|(_, r)| r.clone())
                            .unwrap_or_default()
                    })
                })
            };
            let has_replies = Memo::new(move |_| replies.with(|r| !r.is_empty()));
            let reply = reply.clone();
            let under = reply.clone();
            view! {
                <Note note=note(id) reply />
                {move || {
                    let reply = under.clone();
                    has_replies
                        .get()
                        .then(|| {
                            view! {
                                <li class="note__thread">
                                    <ul class="notes notes--replies" data-testid="note-replies">
                                        <For each=move || replies.get() key=String::clone let:id>
                                            <Note note=note(id) reply=reply.clone() />
                                        </For>
                                    </ul>
                                </li>
                            }
                        })
                }}
            }
        };
        move || {
            if empty.get() {
                return view! {
                    <div class="panel-state panel-state--empty">
                        <p class="panel-state__title">"No feed activity yet"</p>
                        <p class="muted">
                            "Agent decisions, questions, and updates will appear here"
                        </p>
                    </div>
                }
                .into_any();
            }
            let thread = thread.clone();
            view! {
                <ul class="notes">
                    <For
                        each=move || {
                            threads.with(|t| t.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>())
                        }
                        key=String::clone
                        children=thread
                    />
                </ul>
                <FormError error=move || read_older.error() testid="older-error" />
                {move || {
                    more.get()
                        .then(|| {
                            view! {
                                <div class="actions">
                                    <button
                                        class="button"
                                        data-testid="older-notes"
                                        prop:disabled=move || read_older.busy()
                                        on:click=load_older
                                    >
                                        {older_label}
                                    </button>
                                </div>
                            }
                        })
                }}
            }
            .into_any()
        }
    };
    view! {
        <section class="card" data-testid="feed">
            <h2 class="card__title">"Feed"</h2>
            <form class="form feed__composer" on:submit=on_send>
                <label for="guidance" class="sr-only">
                    "Guidance for the agents"
                </label>
                <input
                    id="guidance"
                    placeholder="Send guidance to all agents..."
                    data-testid="guidance-input"
                    prop:value=guidance
                    on:input=move |ev| guidance.set(event_target_value(&ev))
                />
                <FormError error=move || send.error() testid="guidance-error" />
                <div class="actions">
                    <button
                        class="button button--primary"
                        type="submit"
                        data-testid="send-guidance"
                        prop:disabled=move || busy.get() || guidance.with(|g| g.trim().is_empty())
                    >
                        "Send"
                    </button>
                </div>
            </form>
            <Polled read=notes loading="Loading the feed…" let:page>
                {list(page)}
            </Polled>
        </section>
    }
}
