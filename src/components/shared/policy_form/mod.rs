//! The merge-policy form shared by a mission's override and a workspace's default: inherit
//! or set a policy, the tier's fields with what is wrong with each, what it would have done
//! to recent PRs, Save and Cancel.

mod field;
mod field_error;
mod policy_fields;
mod policy_state;
mod refused;
mod text_field;
mod what_if;
mod what_if_prs;

pub use policy_state::{PolicyDraft, PolicyState};

use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use buildd_core::insights::what_if::Proposal;
use leptos::prelude::*;
use policy_fields::PolicyFields;
use policy_state::update;
use what_if::PolicyWhatIf;

/// The edit form: inherit or set a policy, the tier's fields with what is wrong with each,
/// what the policy would have done to the scope's recent PRs, Save and Cancel, and with
/// `reset` a "Reset to inherited" that saves `null` at once. A draft with an error is not
/// sent: the first field in error takes the focus.
#[component]
pub fn PolicyForm(
    state: PolicyState,
    #[prop(into)] inherit_label: String,
    override_label: &'static str,
    /// Whose policy it sets, for the what-if.
    scope: Proposal,
    #[prop(optional)] reset: bool,
) -> impl IntoView {
    let attempted = RwSignal::new(false);
    let form = NodeRef::<leptos::html::Form>::new();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        attempted.set(true);
        if !state.draft_errors().is_empty() {
            use wasm_bindgen::JsCast;
            let invalid = form
                .get_untracked()
                .and_then(|f| f.query_selector("[aria-invalid=true]").ok().flatten())
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(input) = invalid {
                let _ = input.focus();
            }
            return;
        }
        let policy = state
            .draft
            .with_untracked(|d| d.as_ref().map(PolicyDraft::to_policy));
        if let Some(Ok(policy)) = policy {
            state.save.dispatch(policy);
        }
    };
    view! {
        <form class="form" node_ref=form on:submit=submit novalidate>
            <fieldset class="choices">
                <legend class="sr-only">"Policy"</legend>
                <label class="checkbox">
                    <input
                        type="radio"
                        name="policy-mode"
                        data-testid="policy-inherit"
                        prop:checked=move || {
                            state.draft.with(|d| d.as_ref().is_some_and(|d| d.inherit))
                        }
                        on:change=move |_| update(state, |d| d.inherit = true)
                    />
                    {inherit_label}
                </label>
                <label class="checkbox">
                    <input
                        type="radio"
                        name="policy-mode"
                        data-testid="policy-override"
                        prop:checked=move || {
                            state.draft.with(|d| d.as_ref().is_some_and(|d| !d.inherit))
                        }
                        on:change=move |_| update(state, |d| d.inherit = false)
                    />
                    {override_label}
                </label>
            </fieldset>
            <PolicyFields state=state attempted=attempted />
            <PolicyWhatIf state scope />
            <FormError error=move || state.general_errors() testid="policy-error" />
            <FormActions
                save_testid="save-policy"
                busy=move || state.save.busy()
                working="Saving…"
                on_cancel=move |_| {
                    state.draft.set(None);
                    state.save.clear();
                }
            >
                {reset
                    .then(|| {
                        view! {
                            <button
                                class="button button--ghost"
                                type="button"
                                data-testid="reset-policy"
                                prop:disabled=move || state.save.busy()
                                on:click=move |_| state.save.dispatch(None)
                            >
                                "Reset to inherited"
                            </button>
                        }
                    })}
            </FormActions>
        </form>
    }
}
