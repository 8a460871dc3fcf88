//! Raise budget in place: an amount, checked by buildd-core's rule before it is sent, then
//! `PATCH /api/missions/{id} {costBudgetUsd}` (this server's and Buildd's alike). A refusal
//! shows the server's reason and keeps the typed amount; a raise above the spend resumes a
//! mission that ran out, and `refresh` shows it. The mission page and "Waiting on you"
//! share it, so a raise behaves the same wherever it is made. Where the mission's spend is
//! known, what the amount typed would have done to it is said before it is sent.

use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::budget::typed_budget;
use buildd_core::money::Usd;
use leptos::prelude::*;

#[component]
pub fn RaiseBudget(
    mission_id: String,
    /// The budget now, if any: the button then reads "Raise budget", else "Set budget".
    #[prop(into)]
    budget: Signal<Option<Usd>>,
    refresh: Callback<()>,
    /// What a budget of the amount typed would have done, said under it before it is sent.
    #[prop(optional)]
    what_if: Option<Callback<Usd, String>>,
) -> impl IntoView {
    let amount = RwSignal::new(String::new());
    let input_id = format!("budget-{mission_id}");
    let error_id = format!("budget-error-{mission_id}");
    let raise = Mutation::request(
        move |c, budget: &Usd| {
            let (id, budget) = (mission_id.clone(), *budget);
            async move {
                api::set_budget(&c, &id, Some(budget)).await?;
                amount.set(String::new());
                refresh.run(());
                Ok(())
            }
        },
        refused("Not raised"),
    );
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match typed_budget(&amount.get_untracked()) {
            Ok(budget) => raise.dispatch(budget),
            Err(why) => raise.fail(why),
        }
    };
    let action = move || {
        if budget.with(Option::is_some) {
            "Raise budget"
        } else {
            "Set budget"
        }
    };
    let label = move || {
        if budget.with(Option::is_some) {
            "New budget in US dollars"
        } else {
            "Budget in US dollars"
        }
    };
    let described = error_id.clone();
    let replayed = move || {
        let typed = typed_budget(&amount.get()).ok()?;
        what_if.map(|w| w.run(typed))
    };
    view! {
        <form class="raise-budget" data-testid="raise-budget" on:submit=submit novalidate>
            <label class="small" for=input_id.clone()>
                {label}
            </label>
            <input
                id=input_id
                class="raise-budget__input"
                inputmode="decimal"
                autocomplete="off"
                placeholder="25.00"
                data-testid="budget-input"
                aria-describedby=described
                aria-invalid=move || raise.error().is_some().to_string()
                prop:value=amount
                on:input=move |ev| amount.set(event_target_value(&ev))
            />
            <button
                class="button button--primary button--small"
                type="submit"
                data-testid="raise-budget-button"
                prop:disabled=move || raise.busy()
            >
                {action}
            </button>
            <p class="form__error" role="alert" id=error_id data-testid="budget-error">
                {move || raise.error()}
            </p>
            <p class="muted small budget__what-if" aria-live="polite" data-testid="budget-what-if">
                {replayed}
            </p>
        </form>
    }
}
