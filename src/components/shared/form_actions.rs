//! `<FormActions>`: a form's closing pair of buttons, submit and Cancel.

use leptos::prelude::*;

/// The submit button, disabled while the form's request is on its way, then Cancel; any
/// children follow them in the same row.
#[component]
pub fn FormActions(
    /// The submit button's `data-testid`.
    #[prop(into)]
    save_testid: String,
    /// Whether the form's request is on its way (tracked).
    #[prop(into)]
    busy: Signal<bool>,
    /// What Cancel does: closes the form, forgets the draft.
    #[prop(into)]
    on_cancel: Callback<()>,
    /// The submit button's words.
    #[prop(default = "Save")]
    label: &'static str,
    /// Its words while busy ("Saving…"); the same as `label` when not given.
    #[prop(optional)]
    working: Option<&'static str>,
    /// Whether submitting makes no sense yet for another reason (nothing typed).
    #[prop(optional, into)]
    blocked: Option<Signal<bool>>,
    /// Cancel's classes: some forms make it a ghost button.
    #[prop(default = "button")]
    cancel_class: &'static str,
    /// Cancel's `data-testid`, where a test presses it (an `Option`, so a wrapper passes
    /// its own on).
    #[prop(optional_no_strip)]
    cancel_testid: Option<&'static str>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let working = working.unwrap_or(label);
    view! {
        <div class="actions">
            <button
                class="button button--primary"
                type="submit"
                data-testid=save_testid
                prop:disabled=move || busy.get() || blocked.is_some_and(|b| b.get())
            >
                {move || if busy.get() { working } else { label }}
            </button>
            <button
                class=cancel_class
                type="button"
                data-testid=cancel_testid
                on:click=move |_| on_cancel.run(())
            >
                "Cancel"
            </button>
            {children.map(|c| c())}
        </div>
    }
}
