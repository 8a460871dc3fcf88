//! `<DetailsEditor>`: the form that edits what was filed as a mission or a task, its title,
//! description and priority. The server's refusal shows beside the field it names, and what
//! was typed stays.

use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::Mutation;
use leptos::prelude::*;

/// What the form holds, as typed.
#[derive(Clone, Default, PartialEq)]
pub struct Details {
    pub title: String,
    pub description: String,
    pub priority: String,
}

/// What a save sends, read from the form: the description `None` when left empty.
#[derive(Clone)]
pub struct DetailsEdit {
    pub title: String,
    pub description: Option<String>,
    pub priority: i64,
}

/// A failed save: the field the server blamed, if any, and why.
pub type Refusal = (Option<String>, String);

#[component]
pub fn DetailsEditor(
    /// "mission" or "task": the form's test ids.
    noun: &'static str,
    initial: Details,
    /// Sends an edit; builds the thing's own patch of it.
    save: Mutation<DetailsEdit, (), Refusal>,
    on_done: Callback<()>,
) -> impl IntoView {
    let draft = RwSignal::new(initial);
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
        save.dispatch(DetailsEdit {
            title: d.title.trim().to_string(),
            description: Some(description).filter(|d| !d.is_empty()),
            priority,
        });
    };
    let error_at = move |field: &'static str| {
        view! {
            <FormError
                error=move || {
                    save.error().filter(|(f, _)| f.as_deref() == Some(field)).map(|(_, e)| e)
                }
                testid=format!("{noun}-edit-error-{field}")
            />
        }
    };
    // What no field is to blame for: the server's other refusals, a lost connection.
    let other_error = move || {
        save.error()
            .filter(|(f, _)| !matches!(f.as_deref(), Some("title" | "description" | "priority")))
            .map(|(_, e)| e)
    };
    let field = |f: fn(&mut Details) -> &mut String| {
        move |ev| draft.update(|d| *f(d) = event_target_value(&ev))
    };
    view! {
        <form class="form card" data-testid=format!("{noun}-editor") on:submit=submit>
            <label class="field">
                "Title"
                <input
                    type="text"
                    data-testid=format!("{noun}-edit-title")
                    prop:value=move || draft.with(|d| d.title.clone())
                    on:input=field(|d| &mut d.title)
                />
            </label>
            {error_at("title")}
            <label class="field">
                "Description"
                <textarea
                    rows=5
                    data-testid=format!("{noun}-edit-description")
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
                    data-testid=format!("{noun}-edit-priority")
                    prop:value=move || draft.with(|d| d.priority.clone())
                    on:input=field(|d| &mut d.priority)
                />
            </label>
            {error_at("priority")}
            <FormError error=other_error testid=format!("{noun}-edit-error") />
            <FormActions
                save_testid=format!("{noun}-edit-save")
                busy=move || save.busy()
                on_cancel=on_done
                cancel_class="button button--ghost"
            />
        </form>
    }
}
