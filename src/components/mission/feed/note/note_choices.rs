//! `<NoteChoices>`: a question's options: buttons that answer an open one in one click, a
//! line once it is answered.

use leptos::prelude::*;

#[component]
pub fn NoteChoices(
    /// The options and the agent's default.
    options: Memo<(Vec<String>, Option<String>)>,
    open_question: Memo<bool>,
    busy: Signal<bool>,
    /// Answers the question with the words given.
    answer: Callback<String>,
) -> impl IntoView {
    // An open question's options answer it in one click; the agent's default is marked.
    move || {
        options.with(|(options, default)| {
            if options.is_empty() {
                return None;
            }
            if !open_question.get() {
                return Some(
                    view! {
                        <p class="small" data-testid="note-options">
                            {format!("Options: {}", options.join(" · "))}
                        </p>
                    }
                    .into_any(),
                );
            }
            let buttons = options
                .iter()
                .map(|option| {
                    let is_default = default.as_deref() == Some(option.as_str());
                    let text = option.clone();
                    view! {
                        <button
                            class=if is_default {
                                "button button--small button--primary"
                            } else {
                                "button button--small"
                            }
                            data-testid="note-option"
                            prop:disabled=busy
                            on:click=move |_| answer.run(text.clone())
                        >
                            {option.clone()}
                            {is_default.then_some(" (default)")}
                        </button>
                    }
                })
                .collect_view();
            Some(
                view! {
                    <div class="actions note__options" data-testid="note-options">
                        {buttons}
                    </div>
                }
                .into_any(),
            )
        })
    }
}
