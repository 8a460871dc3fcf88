//! The what-if's PRs one by one, a click away: what became of each, what it would have
//! come to as things stand and under the policy typed, and why it would have waited.

use buildd_core::insights::what_if::{PolicyReplay, ReplayedPr};
use leptos::prelude::*;

fn row(now: &ReplayedPr, proposed: Option<&ReplayedPr>) -> impl IntoView + use<> {
    let shown = proposed.unwrap_or(now);
    let title = match &now.title {
        Some(t) => format!("#{} {t}", now.number),
        None => format!("#{}", now.number),
    };
    let why = if shown.reasons.is_empty() {
        "—".to_string()
    } else {
        shown.reasons.join("; ")
    };
    view! {
        <tr>
            <th scope="row">{title}</th>
            <td>{now.state.as_str().to_string()}</td>
            <td>{now.outcome.label()}</td>
            <td>{proposed.map_or("—", |p| p.outcome.label())}</td>
            <td>{why}</td>
        </tr>
    }
}

#[component]
pub fn WhatIfPrs(now: Memo<PolicyReplay>, proposed: Memo<Option<PolicyReplay>>) -> impl IntoView {
    let rows = move || {
        now.with(|now| {
            proposed.with(|proposed| {
                let theirs = proposed.as_ref().map(|p| &p.prs);
                (now.prs.iter().enumerate())
                    .map(|(i, pr)| row(pr, theirs.and_then(|p| p.get(i))))
                    .collect_view()
            })
        })
    };
    view! {
        <details
            class="what-if__prs"
            data-testid="what-if-prs"
            hidden=move || now.with(|n| n.prs.is_empty())
        >
            <summary>"Which PRs, and why"</summary>
            <div class="md-table" role="region" aria-label="The PRs replayed" tabindex="0">
                <table class="cost-table what-if__table">
                    <thead>
                        <tr>
                            <th scope="col">"PR"</th>
                            <th scope="col">"In fact"</th>
                            <th scope="col">"As things stand"</th>
                            <th scope="col">"With this policy"</th>
                            <th scope="col">"Why it would wait"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </details>
    }
}
