//! A mission's tasks by where they stand, each section folded at a limit until asked.

use super::task_row::TaskRow;
use crate::components::shared::empty_state::EmptyState;
use buildd_core::dependencies::{waiting_on, Blocker};
use buildd_core::organizer_runs::run_numbers;
use buildd_core::task_groups::{group_tasks, TaskGroup};
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Rows shown per section until a person asks for all of them.
const SECTION_LIMIT: usize = 50;

#[component]
pub fn TaskSections(
    tasks: Vec<MissionTask>,
    expanded: RwSignal<HashSet<TaskGroup>>,
) -> impl IntoView {
    if tasks.is_empty() {
        return view! {
            <EmptyState
                title="No tasks yet."
                detail="The organizer files tasks once a plan is approved."
            />
        }
        .into_any();
    }
    let titles: Arc<HashMap<String, String>> = Arc::new(
        tasks
            .iter()
            .map(|t| (t.id.clone(), t.title.clone()))
            .collect(),
    );
    let by_id: HashMap<&str, &MissionTask> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let waiting: Arc<HashMap<String, Vec<String>>> = Arc::new(
        tasks
            .iter()
            .filter_map(|t| {
                let blockers = waiting_on(t, |id| by_id.get(id).copied());
                (!blockers.is_empty())
                    .then(|| (t.id.clone(), blockers.iter().map(Blocker::label).collect()))
            })
            .collect(),
    );
    let runs: Arc<HashMap<String, usize>> = Arc::new(run_numbers(&tasks));
    let mut groups: BTreeMap<TaskGroup, Vec<MissionTask>> = BTreeMap::new();
    for (group, task) in group_tasks(&tasks) {
        groups.entry(group).or_default().push(task.clone());
    }
    view! {
        <section class="tasks" data-testid="task-list">
            <h2>{format!("Tasks ({})", tasks.len())}</h2>
            {groups
                .into_iter()
                .map(|(group, items)| {
                    let count = items.len();
                    let titles = titles.clone();
                    let waiting = waiting.clone();
                    let runs = runs.clone();
                    let rows = move || {
                        let all = expanded.with(|e| e.contains(&group));
                        let shown = if all { count } else { count.min(SECTION_LIMIT) };
                        items[..shown]
                            .iter()
                            .map(|t| {
                                let waiting_on = waiting.get(&t.id).cloned().unwrap_or_default();
                                let run_number = runs.get(&t.id).copied();
                                view! { <TaskRow task=t.clone() titles=titles.clone() waiting_on=waiting_on run_number=run_number /> }
                            })
                            .collect_view()
                    };
                    let more = move || {
                        (count > SECTION_LIMIT && !expanded.with(|e| e.contains(&group)))
                            .then(|| {
                                view! {
                                    <button
                                        class="button button--ghost show-all"
                                        on:click=move |_| expanded.update(|e| {
                                            e.insert(group);
                                        })
                                    >
                                        {format!("Show all {count}")}
                                    </button>
                                }
                            })
                    };
                    // Finished work folds away under its count; open work is laid out.
                    if matches!(group, TaskGroup::Done | TaskGroup::Cancelled) {
                        return view! {
                            <details class="task-group task-group--finished" data-testid=format!("tasks-{}", group.slug())>
                                <summary class="task-group__title">
                                    {group.label()} <span class="group__count">{count}</span>
                                </summary>
                                <ul class="task-list">{rows}</ul>
                                {more}
                            </details>
                        }
                        .into_any();
                    }
                    view! {
                        <section class="task-group" data-testid=format!("tasks-{}", group.slug())>
                            <h3 class="task-group__title">
                                {group.label()} <span class="group__count">{count}</span>
                            </h3>
                            <ul class="task-list">{rows}</ul>
                            {more}
                        </section>
                    }
                    .into_any()
                })
                .collect_view()}
        </section>
    }
    .into_any()
}
