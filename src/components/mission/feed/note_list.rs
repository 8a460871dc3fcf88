//! `<NoteList>`: the feed's threads, newest first, and Show older while there are older
//! pages to read.

use super::merged::merged;
use super::note::reply::Reply;
use super::note_thread::NoteThread;
use super::older_pages::OlderPages;
use crate::components::shared::form_error::FormError;
use crate::state::rows::{positions, row_at};
use buildd_core::note::{threads, NotesPage};
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn NoteList(page: Memo<Arc<NotesPage>>, older: OlderPages, reply: Reply) -> impl IntoView {
    let shown = Memo::new(move |_| page.with(|p| older.notes.with(|o| merged(&p.notes, o))));
    // Each thread's note and its replies, by id: replies sit under what they answer.
    let threads = Memo::new(move |_| {
        shown.with(|s| {
            threads(s)
                .into_iter()
                .map(|(n, replies)| (n.id, replies.into_iter().map(|r| r.id).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
        })
    });
    let at = positions(move || shown.with(|s| s.iter().map(|n| n.id.clone()).collect()));
    let note =
        Callback::new(move |id: String| row_at(at, id, move |i| shown.with(|s| s.get(i).cloned())));
    let more = Memo::new(move |_| {
        page.with(|p| p.has_more && p.next_cursor.is_some()) && !older.done.get()
    });
    let empty = Memo::new(move |_| page.with(|p| p.notes.is_empty()));
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
        view! { <NoteThread id replies note reply=reply.clone() /> }
    };
    let older_label = move || {
        if older.read.busy() {
            "Loading..."
        } else {
            "Show older"
        }
    };
    move || {
        if empty.get() {
            return view! {
                <div class="panel-state panel-state--empty">
                    <p class="panel-state__title">"No feed activity yet"</p>
                    <p class="muted">"Agent decisions, questions, and updates will appear here"</p>
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
            <FormError error=move || older.read.error() testid="older-error" />
            {move || {
                more.get()
                    .then(|| {
                        view! {
                            <div class="actions">
                                <button
                                    class="button"
                                    data-testid="older-notes"
                                    prop:disabled=move || older.read.busy()
                                    on:click=move |_| older.load()
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
}
