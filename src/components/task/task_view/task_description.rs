//! `<TaskDescription>`: what a task is, as its description says, in Markdown.

use crate::components::shared::markdown::Markdown;
use leptos::prelude::*;

#[component]
pub fn TaskDescription(
    description: Memo<Option<String>>,
    /// A plan is in review: its brief is folded under the plan instead.
    reviewing: Memo<bool>,
) -> impl IntoView {
    view! {
        <section class="card" class:hidden=reviewing>
            <h2 class="card__title">"Description"</h2>
            <div data-testid="task-description">
                {move || match description.get() {
                    Some(d) => view! { <Markdown source=d /> }.into_any(),
                    None => view! { <p class="muted">"No description."</p> }.into_any(),
                }}
            </div>
        </section>
    }
}
