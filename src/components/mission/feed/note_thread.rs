//! `<NoteThread>`: a note of the feed with the replies that answer it beneath.

use super::note::reply::Reply;
use super::note::Note;
use buildd_core::note::MissionNote;
use leptos::prelude::*;

#[component]
pub fn NoteThread(
    /// The thread's first note.
    id: String,
    /// Its replies' ids, oldest first (tracked).
    replies: Memo<Vec<String>>,
    /// A note of the feed by id.
    note: Callback<String, Memo<MissionNote>>,
    reply: Reply,
) -> impl IntoView {
    let has_replies = Memo::new(move |_| replies.with(|r| !r.is_empty()));
    let under = reply.clone();
    view! {
        <Note note=note.run(id) reply />
        {move || {
            let reply = under.clone();
            has_replies
                .get()
                .then(|| {
                    view! {
                        <li class="note__thread">
                            <ul class="notes notes--replies" data-testid="note-replies">
                                <For each=move || replies.get() key=String::clone let:id>
                                    <Note note=note.run(id) reply=reply.clone() />
                                </For>
                            </ul>
                        </li>
                    }
                })
        }}
    }
}
