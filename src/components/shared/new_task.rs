//! "New task": a piece of work filed by a person, of a mission or of none, in the workspace
//! given (a mission's own). A page may put fields of its own at the top of the form: where
//! the task goes, for a person to pick.

use super::new_task_form::{NewTaskForm, TaskDraft};
use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::requests::tasks::NewTask as NewTaskRequest;
use leptos::prelude::*;

#[component]
pub fn NewTask(
    /// The mission it is filed on, if any.
    #[prop(into)]
    mission_id: Signal<Option<String>>,
    /// Where it is filed: the mission's workspace, where it has one.
    #[prop(into)]
    workspace_id: Signal<Option<String>>,
    refresh: Callback<()>,
    /// Fields before the title, made afresh each time the form opens.
    #[prop(optional)]
    place: Option<ViewFn>,
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
    let submit = Callback::new(move |()| {
        let d = draft.get_untracked();
        let title = d.title.trim().to_string();
        if title.is_empty() {
            title_error.set(true);
            return;
        }
        let description = d.description.trim();
        create.dispatch(NewTaskRequest {
            mission_id: mission_id.get_untracked(),
            description: (!description.is_empty()).then(|| description.to_string()),
            workspace_id: workspace_id.get_untracked(),
            ..NewTaskRequest::new(&title)
        });
    });
    let cancel = Callback::new(move |()| open.set(false));
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
                let place = place.clone();
                view! { <NewTaskForm draft title_error create submit cancel place /> }.into_any()
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
