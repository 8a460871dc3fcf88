//! A field's error under it.

use super::field::Field;
use super::policy_state::{field_error, PolicyState};
use leptos::prelude::*;

/// A field's error under it, in words, named by its input's `aria-describedby`.
#[component]
pub fn FieldError(state: PolicyState, attempted: RwSignal<bool>, field: Field) -> impl IntoView {
    move || {
        field_error(state, attempted, field).map(|e| {
            view! {
                <p class="form__error" id=field.error_id() data-testid=field.error_id()>
                    {e}
                </p>
            }
        })
    }
}
