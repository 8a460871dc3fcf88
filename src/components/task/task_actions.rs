//! What a person can do to a task from its page, as its state allows: Stop one that is
//! queued or running, Start now one that waits on its start time, Edit or Delete one that
//! has not started (Delete with a confirming step). Who stopped a stopped task is said.

use super::task_editor::TaskEditor;
use crate::api;
use crate::components::shared::form_error::FormError;
use crate::components::shared::stop_task::StopTask;
use crate::format::{time_ago, time_until};
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientTask;
use buildd_core::requests::tasks::stop_refused;
use buildd_core::TaskStatus;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

#[component]
pub fn TaskActions(task: Memo<ClientTask>, refresh: Callback<()>) -> impl IntoView {
    let id = task.with_untracked(|t| t.id.clone());
    let status = Memo::new(move |_| task.with(|t| t.status.clone()));
    let pending = Memo::new(move |_| status.get() == TaskStatus::Pending);
    let stoppable = Memo::new(move |_| stop_refused(&status.get()).is_none());
    let deferred = Memo::new(move |_| {
        task.with(|t| t.start_at.clone())
            .filter(|at| pending.get() && !time_until(at).is_empty() && time_until(at) != "due")
    });
    let editing = RwSignal::new(false);
    let deleting = RwSignal::new(false);
    let (start_id, delete_id) = (id.clone(), id.clone());
    let start = Mutation::request(
        move |c, (): &()| {
            let id = start_id.clone();
            async move {
                api::start_task(&c, &id, true).await?;
                refresh.run(());
                Ok(())
            }
        },
        refused("Not started"),
    );
    let navigate = use_navigate();
    let delete = Mutation::request(
        move |c, (): &()| {
            let (id, navigate) = (delete_id.clone(), navigate.clone());
            async move {
                api::delete_task(&c, &id).await?;
                navigate("/activity", Default::default());
                Ok(())
            }
        },
        refused("Not deleted"),
    );
    let done_editing = Callback::new(move |()| {
        editing.set(false);
        refresh.run(());
    });
    let stopped = move || {
        task.with(|t| t.stopped.clone()).map(|s| {
            let reason = s.reason.map(|r| format!(": {r}")).unwrap_or_default();
            view! {
                <p class="notice notice--muted" data-testid="task-stopped">
                    {format!("Stopped by {} {}{reason}", s.by, time_ago(s.at.as_deref()))}
                </p>
            }
        })
    };
    let title = task.with_untracked(|t| t.title.clone());
    view! {
        {stopped}
        <div class="actions" data-testid="task-actions">
            <StopTask task_id=id.clone() title stoppable refresh />
            {move || {
                deferred
                    .get()
                    .map(|at| {
                        view! {
                            <span class="muted small" data-testid="task-deferred">
                                {format!("Starts {}", time_until(&at))}
                            </span>
                            <button
                                class="button button--small"
                                data-testid="task-start-now"
                                prop:disabled=move || start.busy()
                                on:click=move |_| start.dispatch(())
                            >
                                "Start now"
                            </button>
                        }
                    })
            }}
            {move || {
                (pending.get() && !editing.get())
                    .then(|| {
                        view! {
                            <button
                                class="button button--small"
                                data-testid="task-edit"
                                on:click=move |_| editing.set(true)
                            >
                                "Edit"
                            </button>
                            <button
                                class="button button--small button--ghost"
                                data-testid="task-delete"
                                class:hidden=deleting
                                on:click=move |_| deleting.set(true)
                            >
                                "Delete…"
                            </button>
                            <span class="stop" class:hidden=move || !deleting.get()>
                                "Delete this task? It cannot be undone. "
                                <button
                                    class="button button--danger button--small"
                                    data-testid="task-delete-confirm"
                                    prop:disabled=move || delete.busy()
                                    on:click=move |_| delete.dispatch(())
                                >
                                    "Delete task"
                                </button>
                                <button
                                    class="button button--ghost button--small"
                                    on:click=move |_| deleting.set(false)
                                >
                                    "Cancel"
                                </button>
                            </span>
                        }
                    })
            }}
        </div>
        <FormError
            error=move || start.error().or_else(|| delete.error())
            testid="task-action-error"
        />
        {move || editing.get().then(|| view! { <TaskEditor task on_done=done_editing /> })}
    }
}
