//! A question asked in place before a step that cannot be undone: what it does, then the
//! step's button (disabled while it runs) and Cancel.

use leptos::prelude::*;

#[component]
pub fn Confirm(
    /// Names the dialog `<name>-confirm` and its button `confirm-<name>` (`data-testid`).
    name: &'static str,
    /// The id of the element that asks the question, for screen readers.
    #[prop(optional)]
    labelled_by: Option<&'static str>,
    /// The button's words, and its words while the step runs.
    confirm: &'static str,
    working: &'static str,
    #[prop(into)] busy: Signal<bool>,
    #[prop(into)] on_confirm: Callback<()>,
    #[prop(into)] on_cancel: Callback<()>,
    children: Children,
) -> impl IntoView {
    view! {
        <div
            class="confirm"
            role="alertdialog"
            aria-labelledby=labelled_by
            data-testid=format!("{name}-confirm")
        >
            {children()}
            <div class="actions">
                <button
                    class="button button--primary"
                    data-testid=format!("confirm-{name}")
                    prop:disabled=move || busy.get()
                    on:click=move |_| on_confirm.run(())
                >
                    {move || if busy.get() { working } else { confirm }}
                </button>
                <button class="button" on:click=move |_| on_cancel.run(())>
                    "Cancel"
                </button>
            </div>
        </div>
    }
}
