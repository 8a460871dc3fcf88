//! A PR's checks on its head commit, each with its state and, where CI gave one, a link to
//! its log.

use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{head_checks, CheckOutcome, PullRequest};
use leptos::prelude::*;

/// Each check on the head commit with its state, marked so it reads without colour.
#[component]
pub fn PrChecks(pr: PullRequest) -> impl IntoView {
    let head = pr.head_sha.clone().unwrap_or_default();
    let checks: Vec<_> = head_checks(&pr.checks, &head)
        .into_iter()
        .map(|c| {
            let (mark, tone, word) = match c.outcome() {
                CheckOutcome::Passed => ("✓", "ok", c.conclusion.clone().unwrap_or_default()),
                CheckOutcome::Failed => ("✗", "bad", c.conclusion.clone().unwrap_or_default()),
                CheckOutcome::Pending => ("…", "info", c.status.replace('_', " ")),
            };
            // The run's log, where CI said where it is.
            let name = match c.details_url.clone().filter(|u| is_web_address(u)) {
                Some(url) => view! {
                    <a href=url target="_blank" rel="noopener noreferrer" data-testid="pr-check-link">{c.name.clone()}</a>
                }
                .into_any(),
                None => c.name.clone().into_any(),
            };
            view! {
                <li class=format!("check check--{tone}") data-testid="pr-check">
                    <span aria-hidden="true">{mark}</span>" "{name}{format!(": {word}")}
                </li>
            }
        })
        .collect();
    (!checks.is_empty()).then(|| view! { <ul class="pr__checks" aria-label="Checks">{checks}</ul> })
}
