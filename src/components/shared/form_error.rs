//! `<FormError>`: the line under a form that says why its last request failed.

use leptos::prelude::*;

/// Shows `error` while it is `Some`, as an alert so a screen reader says it at once.
#[component]
pub fn FormError(
    /// Why the last request failed (tracked); nothing shows while it is `None`.
    #[prop(into)]
    error: Signal<Option<String>>,
    /// The line's `data-testid`, which the browser tests select by.
    #[prop(optional, into)]
    testid: Option<String>,
    /// The line's `id`, where a field points at it with `aria-describedby`.
    #[prop(optional, into)]
    id: Option<String>,
) -> impl IntoView {
    move || {
        error.get().map(|e| {
            view! {
                <p class="form__error" role="alert" id=id.clone() data-testid=testid.clone()>
                    {e}
                </p>
            }
        })
    }
}
