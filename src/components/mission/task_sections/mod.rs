//! A mission's tasks by where they stand, each section folded at a limit until asked. Rows
//! are keyed by task: a refresh updates the tasks that changed and moves the rest.

pub mod sections;
pub mod task_section;

use self::sections::{blockers, sections};
use self::task_section::TaskSection;
use crate::components::shared::empty_state::EmptyState;
use buildd_core::organizer_runs::run_numbers;
use buildd_core::task_groups::TaskGroup;
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::{HashMap, HashSet};

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
    let section = move |group: TaskGroup| {
        view! { <TaskSection group tasks groups titles waiting runs expanded refresh /> }
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
