//! `<EarlierRevision>`: one plan before the current one: its steps and how it was sent back.

use super::history::Earlier;
use crate::components::shared::inline_markdown::InlineMarkdown;
use crate::components::shared::markdown::Markdown;
use crate::format::time_ago;
use leptos::prelude::*;
/// A revision sent back, folded away.
#[component]
pub fn EarlierRevision(earlier: Memo<Earlier>, number: Memo<usize>) -> impl IntoView {
    let feedback = Memo::new(move |_| earlier.with(|e| e.feedback.clone()));
    let comments = move || {
        earlier.with(|e| {
            e.step_comments
                .iter()
                .map(|c| {
                    view! {
                        <li data-testid="earlier-step-comment">
                            <code>{c.step_ref.clone()}</code>
                            ": "
                            <InlineMarkdown source=c.comment.clone() />
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <li class="revision-history__item" data-testid="revision-earlier">
            <p>
                <a href=move || {
                    format!("/tasks/{}", earlier.with(|e| e.task_id.clone()))
                }>{move || format!("Revision {}", number.get())}</a>
                {move || {
                    earlier
                        .with(|e| match time_ago(e.sent_back_at.as_deref()) {
                            when if when.is_empty() => {
                                " was sent back with the feedback:".to_string()
                            }
                            when => format!(" was sent back {when} with the feedback:"),
                        })
                }}
            </p>
            <blockquote
                class="revision-history__feedback"
                class:hidden=move || feedback.with(|f| f.is_empty())
                data-testid="earlier-feedback"
            >
                <Markdown source=feedback />
            </blockquote>
            <ul
                class="plain small"
                class:hidden=move || earlier.with(|e| e.step_comments.is_empty())
            >
                {comments}
            </ul>
        </li>
    }
}
