//! A text field of the policy form.

use super::field::Field;
use super::field_error::FieldError;
use super::policy_state::{field_error, text, update, PolicyDraft, PolicyState};
use leptos::prelude::*;

/// A text field of the form: its label, hint, input (a box of lines for a list of paths)
/// and what is wrong with it. Its id is its test id too.
#[component]
#[allow(clippy::too_many_arguments)]
pub fn TextField(
    state: PolicyState,
    attempted: RwSignal<bool>,
    field: Field,
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional)] numeric: bool,
    #[prop(optional)] paths: bool,
    get: fn(&PolicyDraft) -> String,
    set: fn(&mut PolicyDraft, String),
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let described = format!("{hint_id} {}", field.error_id());
    let invalid = move || field_error(state, attempted, field).is_some().to_string();
    let on_input = move |ev| {
        let v = event_target_value(&ev);
        update(state, |d| set(d, v.clone()))
    };
    let control = if paths {
        view! {
            <textarea
                id=id
                rows="2"
                data-testid=id
                aria-describedby=described
                aria-invalid=invalid
                prop:value=text(state, get)
                on:input=on_input
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                id=id
                data-testid=id
                placeholder=placeholder
                inputmode=numeric.then_some("numeric")
                aria-describedby=described
                aria-invalid=invalid
                prop:value=text(state, get)
                on:input=on_input
            />
        }
        .into_any()
    };
    view! {
        <div class="field">
            <label class="field__label" for=id>
                {label}
            </label>
            <p class="field__hint" id=hint_id>
                {hint}
            </p>
            {control}
            <FieldError state=state attempted=attempted field=field />
        </div>
    }
}
