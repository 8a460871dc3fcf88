//! Spend over time's card: the picture and its table, or, where the answers carry no spend
//! (a hosted Buildd's), that said in its place: an unknown spend is not drawn as $0.

use super::legend::Legend;
use super::picture::Picture;
use super::spend_chart::SpendChart;
use super::spend_table::SpendTable;
use buildd_core::insights::spend_series::SpendSeries;
use leptos::prelude::*;

const KEY: &[(&str, &str)] = &[
    ("spent", "Spent"),
    ("budget", "Budget"),
    ("forecast", "Plan in review, if approved"),
];
const NO_SPEND: &str = "Buildd's answers carry no spend, so spend over time is not drawn.";

#[component]
pub fn SpendCard(
    /// `None` where the answers carry no spend.
    spend: Memo<Option<SpendSeries>>,
) -> impl IntoView {
    let said = RwSignal::new(None);
    let drawn = Memo::new(move |_| spend.get().unwrap_or_default());
    let nothing = Memo::new(move |_| drawn.with(|s| s.steps.is_empty() && s.forecast.is_none()));
    let picture = move || match nothing.get() {
        true => view! { <p class="muted">"Nothing spent yet."</p> }.into_any(),
        false => view! {
            <SpendChart spend=drawn said />
            <Legend items=KEY />
        }
        .into_any(),
    };
    move || match spend.with(Option::is_some) {
        false => view! {
            <section class="card pic" data-testid="spend-picture">
                <h3 class="card__title">"Spend over time"</h3>
                <p class="muted small" data-testid="not-offered">
                    {NO_SPEND}
                </p>
            </section>
        }
        .into_any(),
        true => view! {
            <Picture
                title="Spend over time"
                testid="spend-picture"
                summary=Signal::derive(move || drawn.with(SpendSeries::describe))
                missing=Signal::derive(|| None::<String>)
                said
                keys="Focus the picture, then ← and → step through the reports."
                picture=ViewFn::from(picture)
                table=ViewFn::from(move || view! { <SpendTable spend=drawn /> })
            />
        }
        .into_any(),
    }
}
