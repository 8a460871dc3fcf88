//! `<OrganizerBrief>`: a planning task's description, folded under its plan while the plan
//! is in review.

use crate::components::shared::markdown::Markdown;
use leptos::prelude::*;

#[component]
pub fn OrganizerBrief(
    /// The plan is in review (tracked): the brief shows only then.
    reviewing: Memo<bool>,
    description: Memo<Option<String>>,
) -> impl IntoView {
    move || {
        reviewing.get().then(|| {
            view! {
                <details class="card" data-testid="task-brief">
                    <summary class="card__title">"The organizer's brief"</summary>
                    <div data-testid="task-brief-text">
                        {move || description.get().map(|d| view! { <Markdown source=d /> })}
                    </div>
                </details>
            }
        })
    }
}
