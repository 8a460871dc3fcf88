//! The answer to a question asked in the dashboard, an agent's or the organizer's: one
//! button a choice, and a line for words of one's own. Sending is the caller's; what was
//! typed stays until the caller clears it, so a refused answer keeps it.

use leptos::prelude::*;

#[component]
pub fn AnswerChoices(
    /// (label, what is sent) for each choice.
    choices: Vec<(String, String)>,
    /// What is typed, kept by the caller.
    text: RwSignal<String>,
    #[prop(into)] busy: Signal<bool>,
    /// Sends an answer: a choice, or the typed words (never empty).
    send: Callback<String>,
    /// The typed line was sent empty.
    empty: Callback<()>,
) -> impl IntoView {
    let send_text = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let typed = text.get_untracked().trim().to_string();
        if typed.is_empty() {
            empty.run(());
        } else {
            send.run(typed);
        }
    };
    let choices = choices
        .into_iter()
        .map(|(label, sent)| {
            view! {
                <button
                    class="button button--small"
                    data-testid="answer-option"
                    prop:disabled=busy
                    on:click=move |_| send.run(sent.clone())
                >
                    {label}
                </button>
            }
        })
        .collect_view();
    view! {
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
    }
}
