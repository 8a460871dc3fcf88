//! `<TaskSection>`: one section of a mission's tasks, folded at a limit until asked;
//! finished work folds away under its count.

use crate::components::mission::task_row::TaskRow;
use crate::state::rows::{positions, row_at};
use buildd_core::task_groups::TaskGroup;
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::{HashMap, HashSet};

/// Rows shown per section until a person asks for all of them.
const SECTION_LIMIT: usize = 50;

#[component]
pub fn TaskSection(
    group: TaskGroup,
    tasks: Memo<Vec<MissionTask>>,
    /// Each section's task ids.
    groups: Memo<Vec<(TaskGroup, Vec<String>)>>,
    /// Every task's title by id, to name dependencies.
    titles: Memo<HashMap<String, String>>,
    /// What holds each blocked task back.
    waiting: Memo<HashMap<String, Vec<String>>>,
    /// Each organizer run's number, by task id.
    runs: Memo<HashMap<String, usize>>,
    /// The sections opened in full.
    expanded: RwSignal<HashSet<TaskGroup>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let at = positions(move || tasks.with(|t| t.iter().map(|t| t.id.clone()).collect()));
    let row = move |id: String| {
        let task = row_at(at, id.clone(), move |i| tasks.with(|t| t.get(i).cloned()));
        let waiting_on = {
            let id = id.clone();
            Memo::new(move |_| waiting.with(|w| w.get(&id).cloned().unwrap_or_default()))
        };
        let run_number = Memo::new(move |_| runs.with(|r| r.get(&id).copied()));
        view! { <TaskRow task titles waiting_on run_number refresh /> }
    };
    let ids = Memo::new(move |_| {
        groups.with(|g| {
            g.iter()
                .find(|(g, _)| *g == group)
                .map(|(_, ids)| ids.clone())
                .unwrap_or_default()
        })
    });
    let count = Memo::new(move |_| ids.with(Vec::len));
    let all = Memo::new(move |_| expanded.with(|e| e.contains(&group)));
    let shown = move || {
        ids.with(|ids| {
            let n = if all.get() {
                ids.len()
            } else {
                ids.len().min(SECTION_LIMIT)
            };
            ids[..n].to_vec()
        })
    };
    let rows = view! {
        <ul class="task-list">
            <For each=shown key=String::clone children=row />
        </ul>
        {move || {
            (count.get() > SECTION_LIMIT && !all.get())
                .then(|| {
                    view! {
                        <button
                            class="button button--ghost show-all"
                            on:click=move |_| {
                                expanded
                                    .update(|e| {
                                        e.insert(group);
                                    })
                            }
                        >
                            {move || format!("Show all {}", count.get())}
                        </button>
                    }
                })
        }}
    };
    let testid = format!("tasks-{}", group.slug());
    // Finished work folds away under its count; open work is laid out.
    if matches!(group, TaskGroup::Done | TaskGroup::Cancelled) {
        view! {
            <details class="task-group task-group--finished" data-testid=testid>
                <summary class="task-group__title">
                    {group.label()} <span class="group__count">{count}</span>
                </summary>
                {rows}
            </details>
        }
        .into_any()
    } else {
        view! {
            <section class="task-group" data-testid=testid>
                <h3 class="task-group__title">
                    {group.label()} <span class="group__count">{count}</span>
                </h3>
                {rows}
            </section>
        }
        .into_any()
    }
}
