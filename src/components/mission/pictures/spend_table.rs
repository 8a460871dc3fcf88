//! Spend over time as a table: what had been spent at each moment it moved, the budget in
//! the caption, and the plan in review's forecast as the last row.

use super::frame::moment;
use buildd_core::insights::spend_series::SpendSeries;
use leptos::prelude::*;

#[component]
pub fn SpendTable(spend: Memo<SpendSeries>) -> impl IntoView {
    let caption = move || {
        spend.with(|s| match s.budget {
            Some(b) => format!("Spent so far at each moment it moved, oldest first; budget {b}"),
            None => "Spent so far at each moment it moved, oldest first; no budget".into(),
        })
    };
    let rows = move || {
        spend.with(|s| {
            s.steps
                .iter()
                .map(|p| {
                    let reached = s.reached_budget_ms == Some(p.at_ms);
                    view! {
                        <tr>
                            <th scope="row">{moment(p.at_ms)}</th>
                            <td>{p.spent.to_string()}</td>
                            <td>{reached.then_some("Budget reached")}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let forecast = move || {
        let f = spend.with(|s| s.forecast)?;
        let past = f.reaches_budget_ms.map(|_| "Past the budget");
        Some(view! {
            <tr data-testid="spend-table-forecast">
                <th scope="row">"If the plan in review is approved"</th>
                <td>{f.to.to_string()}</td>
                <td>{past}</td>
            </tr>
        })
    };
    view! {
        <div class="pic__tables" role="region" aria-label="Spend as a table" tabindex="0">
            <table class="pic__table" data-testid="spend-table">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">"When"</th>
                        <th scope="col">"Spent"</th>
                        <th scope="col">"Note"</th>
                    </tr>
                </thead>
                <tbody>{rows} {forecast}</tbody>
            </table>
        </div>
    }
}
