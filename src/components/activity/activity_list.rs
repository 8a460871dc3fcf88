//! Activity's tasks as read so far, newest change first, in groups (by status or by
//! mission) when asked, with how many pass the filters and Load more while there are more.

use super::activity_row::ActivityRow;
use super::choices::Choices;
use crate::components::shared::empty_state::EmptyState;
use crate::components::shared::form_error::FormError;
use crate::state::activity::ActivityRead;
use crate::state::rows::{positions, row_at};
use buildd_core::activity::{groups, Grouping};
use leptos::prelude::*;

#[component]
pub fn ActivityList(
    read: ActivityRead,
    #[prop(into)] grouping: Signal<Grouping>,
    choices: Memo<Choices>,
    /// Whether a filter or the search narrows the list, for what an empty one says.
    #[prop(into)]
    narrowed: Signal<bool>,
) -> impl IntoView {
    // Missions named where the answer does not name them (a hosted Buildd's list).
    let tasks = Memo::new(move |_| {
        let mut tasks = read.tasks();
        choices.with(|c| {
            for t in &mut tasks {
                if let (None, Some(m)) = (&t.mission_title, &t.mission_id) {
                    t.mission_title = c.mission_title(m);
                }
            }
        });
        tasks
    });
    // Each group's heading and its tasks' ids.
    let grouped = Memo::new(move |_| {
        tasks.with(|t| {
            groups(t, grouping.get())
                .into_iter()
                .map(|(label, at)| (label, at.iter().map(|&i| t[i].id.clone()).collect()))
                .collect::<Vec<(String, Vec<String>)>>()
        })
    });
    let refresh = read.first.reload;
    let at = positions(move || tasks.with(|l| l.iter().map(|t| t.id.clone()).collect()));
    let row = move |id: String| {
        let task = row_at(at, id, move |i| tasks.with(|l| l.get(i).cloned()));
        view! { <ActivityRow task choices refresh /> }
    };
    let group = move |label: String| {
        let key = label.clone();
        let ids = move || {
            grouped
                .with(|g| {
                    g.iter()
                        .find(|(l, _)| *l == key)
                        .map(|(_, ids)| ids.clone())
                })
                .unwrap_or_default()
        };
        let count = {
            let ids = ids.clone();
            move || ids().len()
        };
        let heading = (!label.is_empty()).then(|| {
            view! {
                <h2 class="group__title" data-testid="activity-group-title">
                    {label.clone()}
                    <span class="group__count">{count}</span>
                </h2>
            }
        });
        view! {
            <section class="activity-group" data-testid="activity-group" data-group=label.clone()>
                {heading}
                <ul class="task-list activity-rows">
                    <For each=ids key=String::clone children=row />
                </ul>
            </section>
        }
    };
    let more = read.more;
    view! {
        <p class="muted small" data-testid="activity-count" role="status">
            {move || {
                let (shown, total) = (tasks.with(Vec::len), read.total());
                format!("{shown} of {total} tasks")
            }}
        </p>
        {move || {
            tasks
                .with(Vec::is_empty)
                .then(|| {
                    if narrowed.get() {
                        view! {
                            <EmptyState
                                title="No task matches."
                                detail="Change or clear the filters to see more."
                            />
                        }
                    } else {
                        view! {
                            <EmptyState
                                title="No tasks yet."
                                detail="Tasks filed on a mission or on their own show here."
                            />
                        }
                    }
                })
        }}
        <For
            each=move || grouped.with(|g| g.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>())
            key=String::clone
            children=group
        />
        <FormError error=move || more.error() testid="activity-more-error" />
        {move || {
            read.next_cursor()
                .map(|_| {
                    view! {
                        <div class="actions">
                            <button
                                class="button"
                                data-testid="activity-more"
                                prop:disabled=move || more.busy()
                                on:click=move |_| read.load_more()
                            >
                                {move || if more.busy() { "Loading…" } else { "Load more" }}
                            </button>
                        </div>
                    }
                })
        }}
    }
}
