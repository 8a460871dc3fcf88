//! `<QuestionButtons>`: an open question's Reply, which opens its form, and Skip, which
//! answers with the agent's default.

use super::reply::Reply;
use leptos::prelude::*;

#[component]
pub fn QuestionButtons(
    /// The question.
    id: String,
    /// Its options and the agent's default.
    options: Memo<(Vec<String>, Option<String>)>,
    reply: Reply,
    answer: Callback<String>,
) -> impl IntoView {
    let Reply {
        busy,
        replying,
        send,
        ..
    } = reply;
    let skip = move |_| {
        let text = options
            .with_untracked(|(_, d)| d.clone())
            .unwrap_or_else(|| "Accepted agent default".into());
        answer.run(text)
    };
    view! {
        <div class="actions">
            <button
                class="button"
                data-testid="reply"
                on:click=move |_| {
                    send.clear();
                    replying.set(Some(id.clone()));
                }
            >
                "Reply"
            </button>
            <button
                class="button button--ghost"
                data-testid="skip"
                prop:disabled=busy
                on:click=skip
            >
                "Skip (use the default)"
            </button>
        </div>
    }
}
