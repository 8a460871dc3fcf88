//! The team's work in progress, missions or not, each with Stop: a lead stops an agent from
//! the command center without looking for its task. Read from the task list Buildd serves
//! too, so it is the same on a hosted Buildd.

use crate::api;
use crate::components::shared::polled::Polled;
use crate::components::shared::stop_task::StopTask;
use crate::state::connection::use_connection;
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use buildd_core::{TaskListItem, TaskStatus};
use leptos::prelude::*;

/// How many it lists: the newest.
const SHOWN: usize = 8;

fn running(tasks: &[TaskListItem]) -> Vec<TaskListItem> {
    tasks
        .iter()
        .filter(|t| matches!(t.status, TaskStatus::Assigned | TaskStatus::InProgress))
        .take(SHOWN)
        .cloned()
        .collect()
}

#[component]
pub fn RunningNow() -> impl IntoView {
    let connection = use_connection();
    let list = polled(move || {
        with_connection(&connection, |c| async move { api::active_tasks(&c).await })
    });
    let refresh = list.reload;
    view! {
        <section class="running-now" data-testid="running-now">
            <h3>"Running now"</h3>
            <Polled read=list loading="Reading what runs…" let:found>
                {move || {
                    let rows = found.with(|l| running(&l.tasks));
                    if rows.is_empty() {
                        return view! { <p class="muted">"No agent is working right now."</p> }
                            .into_any();
                    }
                    view! {
                        <ul class="plain-list">
                            <For
                                each=move || found.with(|l| running(&l.tasks))
                                key=|t| t.id.clone()
                                let:task
                            >
                                <li
                                    class="running-now__row"
                                    data-testid="running-task"
                                    data-task-id=task.id.clone()
                                >
                                    <a href=format!("/tasks/{}", task.id)>{task.title.clone()}</a>
                                    <StopTask
                                        task_id=task.id.clone()
                                        title=task.title.clone()
                                        stoppable=true
                                        refresh
                                        compact=true
                                    />
                                </li>
                            </For>
                        </ul>
                    }
                        .into_any()
                }}
            </Polled>
        </section>
    }
}
