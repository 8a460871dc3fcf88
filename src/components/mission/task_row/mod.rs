//! A task of a mission: title (a link to its page), badges, PR, dependencies, what a
//! blocked task is waiting on, and how long its latest run took beside what it cost. Plain
//! anchors: the router handles same-origin clicks, and they are far lighter to render.

pub mod effort;
pub mod row_meta;

use self::row_meta::RowMeta;
use crate::components::shared::class_badge::ClassBadge;
use crate::components::shared::mode_badge::ModeBadge;
use crate::components::shared::status_badge::StatusBadge;
use crate::components::shared::stop_task::StopTask;
use buildd_core::progress::effective_class;
use buildd_core::requests::tasks::stop_refused;
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn TaskRow(
    task: Memo<MissionTask>,
    /// Every task's title by id, to name dependencies.
    titles: Memo<HashMap<String, String>>,
    /// What holds the task back, when it is blocked.
    waiting_on: Memo<Vec<String>>,
    /// An organizer run's number: its rows all carry the mission's title, so they are told
    /// apart by it.
    run_number: Memo<Option<usize>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let id = task.with_untracked(|t| t.id.clone());
    let status = Memo::new(move |_| task.with(|t| t.status.clone()));
    let mode = Memo::new(move |_| task.with(|t| t.mode.clone()));
    let class = Memo::new(move |_| task.with(effective_class));
    // A running row says what its agent is doing, or that it waits on you.
    let live = Memo::new(move |_| {
        task.with(|t| {
            let run = t.workers.first().filter(|w| w.status.is_live())?;
            Some(match &run.waiting_for {
                Some(_) => ("waiting on you".to_string(), true),
                None => (run.current_action.clone()?, false),
            })
        })
    });
    let stop_id = id.clone();
    let stoppable = Memo::new(move |_| stop_refused(&status.get()).is_none());
    view! {
        <li class="task-row" data-testid="task-row" data-task-id=id.clone()>
            <div class="task-row__main">
                <a
                    href=format!("/tasks/{id}")
                    class="task-row__title"
                    title=move || task.with(|t| t.title.clone())
                >
                    {move || match run_number.get() {
                        Some(n) => format!("Organizer run {n}"),
                        None => task.with(|t| t.title.clone()),
                    }}
                </a>
                <div class="task-row__badges">
                    <StatusBadge status />
                    <ModeBadge mode />
                    <ClassBadge class />
                    {move || {
                        stoppable
                            .get()
                            .then(|| {
                                let title = task.with_untracked(|t| t.title.clone());
                                view! {
                                    <StopTask
                                        task_id=stop_id.clone()
                                        title
                                        stoppable
                                        refresh
                                        compact=true
                                    />
                                }
                            })
                    }}
                </div>
            </div>
            {move || {
                live.get()
                    .map(|(text, waiting)| {
                        view! {
                            <p
                                class="current-action"
                                class:waiting-on=waiting
                                data-testid="task-current-action"
                            >
                                {text}
                            </p>
                        }
                    })
            }}
            <RowMeta task titles waiting_on />
        </li>
    }
}
