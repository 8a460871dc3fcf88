//! Edit a task that has not started: its title, description and priority, checked by
//! buildd-core's rules before they are sent. The server's refusal shows beside the field it
//! names, and what was typed stays.

use crate::api;
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::client::ClientTask;
use buildd_core::requests::tasks::TaskPatch;
use buildd_core::requests::Patch;
use leptos::prelude::*;

#[derive(Clone, Default, PartialEq)]
struct Draft {
    title: String,
    description: String,
    priority: String,
}

#[component]
pub fn TaskEditor(task: Memo<ClientTask>, on_done: Callback<()>) -> impl IntoView {
    let draft = RwSignal::new(task.with_untracked(|t| Draft {
        title: t.title.clone(),
        description: t.description.clone().unwrap_or_default(),
        priority: t.priority.to_string(),
    }));
    let id = task.with_untracked(|t| t.id.clone());
    let save = Mutation::request(
        move |c, change: &TaskPatch| {
            let (id, change) = (id.clone(), change.clone());
            async move {
                api::update_task(&c, &id, &change).await?;
                on_done.run(());
                Ok(())
            }
        },
        |e: &api::ApiError| (e.field().map(str::to_string), refused("Not saved")(e)),
    );
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let d = draft.get_untracked();
        let Ok(priority) = d.priority.trim().parse::<i64>() else {
            save.fail((
                Some("priority".into()),
                "Priority must be a whole number.".into(),
            ));
            return;
        };
        let description = d.description.trim().to_string();
        save.dispatch(TaskPatch {
            title: Patch::Value(d.title.trim().to_string()),
            description: if description.is_empty() {
                Patch::Null
            } else {
                Patch::Value(description)
            },
            priority: Patch::Value(priority),
            ..TaskPatch::default()
        });
    };
    let error_at = move |field: &'static str| {
        view! {
            <FormError
                error=move || {
                    save.error().filter(|(f, _)| f.as_deref() == Some(field)).map(|(_, e)| e)
                }
                testid=format!("task-edit-error-{field}")
            />
        }
    };
    // What no field is to blame for: the server's other refusals, a lost connection.
    let other_error = move || {
        save.error()
            .filter(|(f, _)| !matches!(f.as_deref(), Some("title" | "description" | "priority")))
            .map(|(_, e)| e)
    };
    let field = |f: fn(&mut Draft) -> &mut String| {
        move |ev| draft.update(|d| *f(d) = event_target_value(&ev))
    };
    view! {
        <form class="form card" data-testid="task-editor" on:submit=submit>
            <label class="field">
                "Title"
                <input
                    type="text"
                    data-testid="task-edit-title"
                    prop:value=move || draft.with(|d| d.title.clone())
                    on:input=field(|d| &mut d.title)
                />
            </label>
            {error_at("title")}
            <label class="field">
                "Description"
                <textarea
                    rows=5
                    data-testid="task-edit-description"
                    prop:value=move || draft.with(|d| d.description.clone())
                    on:input=field(|d| &mut d.description)
                ></textarea>
            </label>
            {error_at("description")}
            <label class="field field--inline">
                "Priority"
                <input
                    type="number"
                    step="1"
                    data-testid="task-edit-priority"
                    prop:value=move || draft.with(|d| d.priority.clone())
                    on:input=field(|d| &mut d.priority)
                />
            </label>
            {error_at("priority")}
            <FormError error=other_error testid="task-edit-error" />
            <FormActions
                save_testid="task-edit-save"
                busy=move || save.busy()
                on_cancel=on_done
                cancel_class="button button--ghost"
            />
        </form>
    }
}
