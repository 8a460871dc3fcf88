//! "New task" on a mission: a piece of work filed by a person, in the mission's workspace.

use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::requests::tasks::NewTask as NewTaskRequest;
use leptos::prelude::*;

/// The task as typed, kept through a failed save.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskDraft {
    pub title: String,
    pub description: String,
}

#[component]
pub fn NewTask(
    mission_id: String,
    /// The mission's workspace, where the task is filed.
    workspace_id: Signal<Option<String>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let draft = RwSignal::new(TaskDraft::default());
    // The title of the task last created, said until the next one.
    let created = RwSignal::new(None::<String>);
    let create = Mutation::request(
        move |c, task: &NewTaskRequest| {
            let task = task.clone();
            async move {
                api::create_task(&c, &task).await?;
                created.set(task.title.clone());
                draft.set(TaskDraft::default());
                open.set(false);
                refresh.run(());
                Ok(())
            }
        },
        refused("The task was not created"),
    );
    let title_error = RwSignal::new(false);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let d = draft.get_untracked();
        let title = d.title.trim().to_string();
        if title.is_empty() {
            title_error.set(true);
            return;
        }
        let description = d.description.trim();
        create.dispatch(NewTaskRequest {
            mission_id: Some(mission_id.clone()),
            description: (!description.is_empty()).then(|| description.to_string()),
            workspace_id: workspace_id.get_untracked(),
            ..NewTaskRequest::new(&title)
        });
    };
    view! {
        {move || {
            created
                .get()
                .filter(|_| !open.get())
                .map(|t| {
                    view! {
                        <p class="notice" role="status" data-testid="task-created">
                            {format!("Task “{t}” filed: it runs once a runner claims it.")}
                        </p>
                    }
                })
        }}
        {move || {
            if open.get() {
                let submit = submit.clone();
                view! {
                    <form class="form card" data-testid="new-task" on:submit=submit novalidate>
                        <h3 class="card__title">"New task"</h3>
                        <div class="field">
                            <label class="field__label" for="task-title">
                                "Title"
                            </label>
                            <input
                                id="task-title"
                                data-testid="new-task-title"
                                autofocus
                                aria-describedby="task-title-error"
                                aria-invalid=move || title_error.get().to_string()
                                prop:value=move || draft.with(|d| d.title.clone())
                                on:input=move |ev| {
                                    title_error.set(false);
                                    let v = event_target_value(&ev);
                                    draft.update(|d| d.title = v)
                                }
                            />
                            {move || {
                                title_error
                                    .get()
                                    .then(|| {
                                        view! {
                                            <p
                                                class="form__error"
                                                id="task-title-error"
                                                data-testid="new-task-title-error"
                                            >
                                                "Give the task a title."
                                            </p>
                                        }
                                    })
                            }}
                        </div>
                        <div class="field">
                            <label class="field__label" for="task-description">
                                "What to do"
                            </label>
                            <textarea
                                id="task-description"
                                rows="3"
                                data-testid="new-task-description"
                                prop:value=move || draft.with(|d| d.description.clone())
                                on:input=move |ev| {
                                    let v = event_target_value(&ev);
                                    draft.update(|d| d.description = v)
                                }
                            ></textarea>
                        </div>
                        {move || {
                            create
                                .error()
                                .map(|e| {
                                    view! {
                                        <p
                                            class="form__error"
                                            role="alert"
                                            data-testid="new-task-error"
                                        >
                                            {e}
                                        </p>
                                    }
                                })
                        }}
                        <div class="actions">
                            <button
                                class="button button--primary"
                                type="submit"
                                data-testid="create-task"
                                prop:disabled=move || create.busy()
                            >
                                {move || if create.busy() { "Filing…" } else { "File task" }}
                            </button>
                            <button class="button" type="button" on:click=move |_| open.set(false)>
                                "Cancel"
                            </button>
                        </div>
                    </form>
                }
                    .into_any()
            } else {
                view! {
                    <div class="actions">
                        <button
                            class="button"
                            data-testid="open-new-task"
                            on:click=move |_| {
                                created.set(None);
                                create.clear();
                                open.set(true);
                            }
                        >
                            "New task"
                        </button>
                    </div>
                }
                    .into_any()
            }
        }}
    }
}
