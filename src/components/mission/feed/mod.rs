//! The mission feed: notes and questions from agents and people, newest first, replies under
//! what they answer. A person sends guidance or answers a question; the text stays when
//! sending fails. One note goes out at a time, guidance or reply.

pub mod guidance_form;
pub mod merged;
pub mod note;
pub mod note_list;
pub mod note_thread;
pub mod older_pages;

use self::guidance_form::GuidanceForm;
use self::note::reply::Reply;
use self::note_list::NoteList;
use self::older_pages::OlderPages;
use crate::api;
use crate::components::shared::polled::Polled;
use crate::state::mutation::{refused, Mutation};
use crate::state::refresh::PolledRead;
use buildd_core::note::NotesPage;
use buildd_core::NoteKind;
use leptos::prelude::*;

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
                async move { api::post_note(&c, &mission_id, NoteKind::Guidance, &text).await }
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
    // The newest page refreshes by itself; older pages are read on request and kept.
    let older = OlderPages::new(mission_id.clone(), notes);
    let reply = Reply {
        mission_id,
        busy,
        replying,
        text: reply_text,
        send: reply,
    };
    view! {
        <section class="card" data-testid="feed">
            <h2 class="card__title">"Feed"</h2>
            <GuidanceForm guidance send busy />
            <Polled read=notes loading="Loading the feed…" let:page>
                <NoteList page older reply=reply.clone() />
            </Polled>
        </section>
    }
}
