//! The New task form: where it goes (when the page lets a person pick), its title
//! (required, said in place when missing) and what to do; the server's refusal under it.

use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::Mutation;
use buildd_core::requests::tasks::NewTask as NewTaskRequest;
use leptos::prelude::*;

/// The task as typed, kept through a failed save.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskDraft {
    pub title: String,
    pub description: String,
}

#[component]
pub fn NewTaskForm(
    draft: RwSignal<TaskDraft>,
    title_error: RwSignal<bool>,
    create: Mutation<NewTaskRequest>,
    submit: Callback<()>,
    cancel: Callback<()>,
    place: Option<ViewFn>,
) -> impl IntoView {
    view! {
        <form
            class="form card"
            data-testid="new-task"
            on:submit=move |ev| {
                ev.prevent_default();
                submit.run(());
            }
            novalidate
        >
            <h3 class="card__title">"New task"</h3>
            {place.map(|p| p.run())}
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
                <FormError
                    error=Signal::derive(move || {
                        title_error.get().then(|| "Give the task a title.".to_string())
                    })
                    id="task-title-error"
                    testid="new-task-title-error"
                />
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
            <FormError error=move || create.error() testid="new-task-error" />
            <FormActions
                save_testid="create-task"
                busy=move || create.busy()
                label="File task"
                working="Filing…"
                on_cancel=cancel
            />
        </form>
    }
}
