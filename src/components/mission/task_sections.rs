//! A mission's tasks by where they stand, each section folded at a limit until asked. Rows
//! are keyed by task: a refresh updates the tasks that changed and moves the rest.

use super::task_row::TaskRow;
use crate::components::shared::empty_state::EmptyState;
use crate::state::rows::row_memo;
use buildd_core::dependencies::{waiting_on, Blocker};
use buildd_core::organizer_runs::run_numbers;
use buildd_core::task_groups::{group_tasks, TaskGroup};
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Rows shown per section until a person asks for all of them.
const SECTION_LIMIT: usize = 50;

/// What holds each blocked task back, in words.
fn blockers(tasks: &[MissionTask]) -> HashMap<String, Vec<String>> {
    let by_id: HashMap<&str, &MissionTask> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    tasks
        .iter()
        .filter_map(|t| {
            let blockers = waiting_on(t, |id| by_id.get(id).copied());
            (!blockers.is_empty())
                .then(|| (t.id.clone(), blockers.iter().map(Blocker::label).collect()))
        })
        .collect()
}

/// The ids of each section's tasks, sections in order.
fn sections(tasks: &[MissionTask]) -> Vec<(TaskGroup, Vec<String>)> {
    let mut groups: BTreeMap<TaskGroup, Vec<String>> = BTreeMap::new();
    for (group, task) in group_tasks(tasks) {
        groups.entry(group).or_default().push(task.id.clone());
    }
    groups.into_iter().collect()
}

#[component]
pub fn TaskSections(tasks: Memo<Vec<MissionTask>>, refresh: Callback<()>) -> impl IntoView {
    let titles = Memo::new(move |_| {
        tasks.with(|t| {
            t.iter()
                .map(|t| (t.id.clone(), t.title.clone()))
                .collect::<HashMap<_, _>>()
        })
    });
    let waiting = Memo::new(move |_| tasks.with(|t| blockers(t)));
    let runs = Memo::new(move |_| tasks.with(|t| run_numbers(t)));
    let groups = Memo::new(move |_| tasks.with(|t| sections(t)));
    let empty = Memo::new(move |_| tasks.with(Vec::is_empty));
    // The sections opened in full.
    let expanded = RwSignal::new(HashSet::<TaskGroup>::new());
    let row = move |id: String| {
        let task = {
            let id = id.clone();
            row_memo(move || tasks.with(|t| t.iter().find(|t| t.id == id).cloned()))
        };
        let waiting_on = {
            let id = id.clone();
            Memo::new(move |_| waiting.with(|w| w.get(&id).cloned().unwrap_or_default()))
        };
        let run_number = Memo::new(move |_| runs.with(|r| r.get(&id).copied()));
        view! { <TaskRow task titles waiting_on run_number refresh /> }
    };
    let section = move |group: TaskGroup| {
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
    };
    move || {
        if empty.get() {
            return view! {
                <EmptyState
                    title="No tasks yet."
                    detail="The organizer files tasks once a plan is approved."
                />
            }
            .into_any();
        }
        view! {
            <section class="tasks" data-testid="task-list">
                <h2>{move || format!("Tasks ({})", tasks.with(Vec::len))}</h2>
                <For
                    each=move || groups.with(|g| g.iter().map(|(g, _)| *g).collect::<Vec<_>>())
                    key=|g| *g
                    children=section
                />
            </section>
        }
        .into_any()
    }
}
