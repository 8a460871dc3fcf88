//! Answer the organizer's question in place: one of its choices (its default first
//! marked), or words of one's own, sent as a person's reply on the mission's notes, which
//! the organizer reads and which wake it. What was typed stays when the answer is refused.

use crate::api;
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
    let send_text = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let typed = text.get_untracked().trim().to_string();
        if typed.is_empty() {
            answer.fail("Write an answer, or pick one of the choices.".into());
            return;
        }
        answer.dispatch(typed);
    };
    // The choices, the default among them (added when the options do not list it).
    let mut choices = options;
    if let Some(d) = default_choice.clone().filter(|d| !choices.contains(d)) {
        choices.push(d);
    }
    let choices = choices
        .into_iter()
        .map(|choice| {
            let sent = choice.clone();
            let label = if Some(&choice) == default_choice.as_ref() {
                format!("{choice} (default)")
            } else {
                choice
            };
            view! {
                <button
                    class="button button--small"
                    data-testid="question-option"
                    prop:disabled=busy
                    on:click=move |_| answer.dispatch(sent.clone())
                >
                    {label}
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="answer" data-testid="answer-question">
            <div class="actions">{choices}</div>
            <form class="form answer__form" on:submit=send_text>
                <input
                    type="text"
                    aria-label="Your answer"
                    placeholder="Or answer in your own words"
                    data-testid="question-text"
                    prop:value=text
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
                <button
                    class="button button--primary button--small"
                    type="submit"
                    prop:disabled=busy
                    data-testid="question-send"
                >
                    "Answer"
                </button>
            </form>
            {move || {
                answer
                    .error()
                    .map(|e| {
                        view! {
                            <p class="form__error" role="alert" data-testid="question-error">
                                {e}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
