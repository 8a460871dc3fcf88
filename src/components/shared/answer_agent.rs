//! Answer an agent that waits on a question, in place: one of its choices, or words of
//! one's own. An agent still there reads the answer with its next report; one that is gone
//! gets it as a follow-up task. What was typed stays when the answer is refused.

use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::waiting::Responded;
use leptos::prelude::*;

/// What came of an answer, in words.
fn outcome(answer: &Responded) -> &'static str {
    match answer.delivered.as_deref() {
        Some("follow_up") => "Answered: the agent had gone, so a follow-up task carries it.",
        _ => "Answered: the agent reads it with its next report.",
    }
}

#[component]
pub fn AnswerAgent(
    worker_id: String,
    prompt: String,
    options: Vec<String>,
    /// The agent is there to read it (else it becomes a follow-up task).
    live: bool,
    refresh: Callback<()>,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let answer = Mutation::request(
        move |c, message: &String| {
            let (worker, message) = (worker_id.clone(), message.clone());
            async move {
                let answered = api::respond(&c, &worker, &message).await?;
                text.set(String::new());
                refresh.run(());
                Ok(answered)
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
    let choices = options
        .into_iter()
        .map(|option| {
            let sent = option.clone();
            view! {
                <button
                    class="button button--small"
                    data-testid="answer-option"
                    prop:disabled=busy
                    on:click=move |_| answer.dispatch(sent.clone())
                >
                    {option}
                </button>
            }
        })
        .collect_view();
    let later = (!live).then(|| {
        view! {
            <p class="muted small">
                "Its session has ended: the answer goes to a follow-up task that carries the question."
            </p>
        }
    });
    view! {
        <div class="answer" data-testid="answer-agent">
            <p class="answer__prompt" data-testid="answer-prompt">
                {prompt}
            </p>
            {later}
            <div class="actions">{choices}</div>
            <form class="form answer__form" on:submit=send_text>
                <input
                    type="text"
                    aria-label="Your answer"
                    placeholder="Or answer in your own words"
                    data-testid="answer-text"
                    prop:value=text
                    on:input=move |ev| text.set(event_target_value(&ev))
                />
                <button
                    class="button button--primary button--small"
                    type="submit"
                    prop:disabled=busy
                    data-testid="answer-send"
                >
                    "Answer"
                </button>
            </form>
            {move || {
                answer
                    .answer()
                    .map(|a| {
                        view! {
                            <p class="muted small" role="status" data-testid="answer-done">
                                {outcome(&a)}
                            </p>
                        }
                    })
            }}
            {move || {
                answer
                    .error()
                    .map(|e| {
                        view! {
                            <p class="form__error" role="alert" data-testid="answer-error">
                                {e}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
