//! Answer the organizer's question in place: one of its choices (its default first
//! marked), or words of one's own, sent as a person's reply on the mission's notes, which
//! the organizer reads and which wake it. What was typed stays when the answer is refused.

use crate::api;
use crate::components::shared::answer_choices::AnswerChoices;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use leptos::prelude::*;

#[component]
pub fn AnswerQuestion(
    mission_id: String,
    note_id: String,
    options: Vec<String>,
    default_choice: Option<String>,
    refresh: Callback<()>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let answer = Mutation::request(
        move |c, reply: &String| {
            let (mission, note, reply) = (mission_id.clone(), note_id.clone(), reply.clone());
            async move {
                api::reply_note(&c, &mission, &note, &reply).await?;
                text.set(String::new());
                refresh.run(());
                Ok(())
            }
        },
        refused("Not answered"),
    );
    let busy = Signal::derive(move || answer.busy());
    let send = Callback::new(move |reply: String| answer.dispatch(reply));
    let empty =
        Callback::new(move |()| answer.fail("Write an answer, or pick one of the choices.".into()));
    // The choices, the default among them (added when the options do not list it).
    let mut listed = options;
    if let Some(d) = default_choice.clone().filter(|d| !listed.contains(d)) {
        listed.push(d);
    }
    let choices = listed
        .into_iter()
        .map(|choice| match Some(&choice) == default_choice.as_ref() {
            true => (format!("{choice} (default)"), choice),
            false => (choice.clone(), choice),
        })
        .collect();
    view! {
        <div class="answer" data-testid="answer-question">
            <AnswerChoices choices text busy send empty />
            <FormError error=move || answer.error() testid="answer-error" />
        </div>
    }
}
