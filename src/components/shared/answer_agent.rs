//! Answer an agent that waits on a question, in place: one of its choices, or words of
//! one's own. An agent still there reads the answer with its next report; one that is gone
//! gets it as a follow-up task. What was typed stays when the answer is refused.

use super::answer_choices::AnswerChoices;
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::waiting::Responded;
use buildd_core::AnswerRoute;
use leptos::prelude::*;

/// What came of an answer, in words.
fn outcome(answer: &Responded) -> &'static str {
    match answer.delivered {
        Some(AnswerRoute::FollowUp) => {
            "Answered: the agent had gone, so a follow-up task carries it."
        }
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
    let choices = options.into_iter().map(|o| (o.clone(), o)).collect();
    let send = Callback::new(move |message: String| answer.dispatch(message));
    let empty =
        Callback::new(move |()| answer.fail("Write an answer, or pick one of the choices.".into()));
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
            <AnswerChoices choices text busy send empty />
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
            <FormError error=move || answer.error() testid="answer-error" />
        </div>
    }
}
