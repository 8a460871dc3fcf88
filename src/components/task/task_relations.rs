//! Where a task sits among its mission's tasks: what it depends on, its parent and its
//! children, each a link named by title where the mission is known.

use crate::format::short_id;
use buildd_core::client::{ClientMission, ClientTask};
use leptos::prelude::*;
use leptos_router::components::A;

/// Task `id`'s label and status in words, as the mission knows it.
fn label_of(id: &str, mission: Option<&ClientMission>) -> (String, Option<String>) {
    let found = mission.and_then(|m| m.tasks.iter().find(|t| t.id == id));
    let label = found
        .map(|t| t.title.clone())
        .unwrap_or_else(|| short_id(id).to_string());
    (label, found.map(|t| t.status.label().into_owned()))
}

/// The links to `ids`, keyed by task; `None.` when there are none.
fn links(
    ids: Memo<Vec<String>>,
    mission: Memo<Option<ClientMission>>,
    testid: Option<&'static str>,
    none: &'static str,
) -> impl IntoView {
    let empty = Memo::new(move |_| ids.with(Vec::is_empty));
    let link = move |id: String| {
        let shown = {
            let id = id.clone();
            Memo::new(move |_| mission.with(|m| label_of(&id, m.as_ref())))
        };
        view! {
            <li>
                <A href=format!("/tasks/{id}")>{move || shown.with(|(label, _)| label.clone())}</A>
                {move || {
                    shown
                        .with(|(_, status)| status.clone())
                        .map(|s| view! { <span class="muted small">{format!(" · {s}")}</span> })
                }}
            </li>
        }
    };
    move || {
        if empty.get() {
            view! { <p class="muted">{none}</p> }.into_any()
        } else {
            view! {
                <ul data-testid=testid>
                    <For each=move || ids.get() key=String::clone children=link />
                </ul>
            }
            .into_any()
        }
    }
}

#[component]
pub fn TaskRelations(
    task: Memo<ClientTask>,
    mission: Memo<Option<ClientMission>>,
) -> impl IntoView {
    let id = task.with_untracked(|t| t.id.clone());
    let depends_on = Memo::new(move |_| task.with(|t| t.depends_on.clone()));
    let parent = Memo::new(move |_| task.with(|t| t.parent_task_id.clone().into_iter().collect()));
    let children = Memo::new(move |_| {
        mission.with(|m| {
            m.iter()
                .flat_map(|m| m.tasks.iter())
                .filter(|t| t.parent_task_id.as_deref() == Some(id.as_str()))
                .map(|t| t.id.clone())
                .collect()
        })
    });
    view! {
        <section class="card relations">
            <div>
                <h2 class="card__title">"Depends on"</h2>
                {links(depends_on, mission, None, "Nothing.")}
            </div>
            <div>
                <h2 class="card__title">"Parent"</h2>
                {links(parent, mission, None, "None.")}
            </div>
            <div>
                <h2 class="card__title">"Children"</h2>
                {links(children, mission, Some("task-children"), "None.")}
            </div>
        </section>
    }
}
