//! `<ReplyForm>`: an answer typed to an open question.

use super::reply::Reply;
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use leptos::prelude::*;

#[component]
pub fn ReplyForm(reply: Reply, answer: Callback<String>) -> impl IntoView {
    let Reply {
        busy,
        replying,
        text,
        send,
        ..
    } = reply;
    view! {
        <form
            class="form"
            on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                let typed = text.get_untracked().trim().to_string();
                if !typed.is_empty() {
                    answer.run(typed)
                }
            }
        >
            <input
                placeholder="Your reply..."
                data-testid="reply-input"
                prop:value=text
                on:input=move |ev| text.set(event_target_value(&ev))
            />
            <FormError error=move || send.error() testid="reply-error" />
            <FormActions
                save_testid="send-reply"
                busy=busy
                blocked=move || text.with(|r| r.trim().is_empty())
                label="Send"
                on_cancel=move |_| replying.set(None)
            />
        </form>
    }
}
