//! `<BudgetField>`: New mission's optional budget, and why what is typed is not one.

use super::mission_draft::MissionDraft;
use leptos::prelude::*;

const BUDGET_HINT: &str = "In US dollars. Once its agents have spent it, nothing new starts \
                           until you raise it.";

#[component]
pub fn BudgetField(
    draft: RwSignal<MissionDraft>,
    /// Why the budget typed was refused; typing again clears it.
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label class="field__label" for="mission-budget">
                "Budget (optional)"
            </label>
            <p class="field__hint" id="mission-budget-hint">
                {BUDGET_HINT}
            </p>
            <input
                id="mission-budget"
                class="raise-budget__input"
                inputmode="decimal"
                autocomplete="off"
                placeholder="25.00"
                data-testid="new-mission-budget"
                aria-describedby="mission-budget-hint mission-budget-error"
                aria-invalid=move || error.with(Option::is_some).to_string()
                prop:value=move || draft.with(|d| d.budget.clone())
                on:input=move |ev| {
                    error.set(None);
                    let v = event_target_value(&ev);
                    draft.update(|d| d.budget = v);
                }
            />
            // Always in the page: the input's aria-describedby points at it.
            <p class="form__error" id="mission-budget-error" data-testid="new-mission-budget-error">
                {move || error.get()}
            </p>
        </div>
    }
}
