//! `<AddedAfter>`: the mission's tasks filed after a plan was approved.

use leptos::prelude::*;

/// Nothing while none was.
#[component]
pub fn AddedAfter(
    /// Id and title of each.
    added: Memo<Vec<(String, String)>>,
) -> impl IntoView {
    move || {
        added.with(|a| {
            (!a.is_empty()).then(|| {
                let links = a
                    .iter()
                    .map(|(id, title)| {
                        view! {
                            <li>
                                <a href=format!("/tasks/{id}")>{title.clone()}</a>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <h3>"Added after the plan"</h3>
                    <ul class="plain small" data-testid="added-after">
                        {links}
                    </ul>
                }
            })
        })
    }
}
