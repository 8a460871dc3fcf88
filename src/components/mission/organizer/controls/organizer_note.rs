//! `<OrganizerNote>`: what the last organizer action came to, once it is done.

use super::run_note::Note;
use crate::state::mutation::Mutation;
use leptos::prelude::*;

#[component]
pub fn OrganizerNote(act: Mutation<&'static str, Note, Note>) -> impl IntoView {
    let note = move || {
        (!act.busy())
            .then(|| act.answer().or_else(|| act.error()))
            .flatten()
    };
    move || {
        note().map(|(tone, text, task)| {
            view! {
                <p
                    class=format!("notice notice--{tone}")
                    role="status"
                    data-testid="organizer-note"
                >
                    {text}
                    {task
                        .map(|t| {
                            view! { <a href=format!("/tasks/{t}")>"Open the run"</a> }
                        })}
                </p>
            }
        })
    }
}
