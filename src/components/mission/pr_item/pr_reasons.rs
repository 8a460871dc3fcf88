//! `<PrReasons>`: what holds a PR, a line a reason.

use buildd_core::pull_request::PullRequest;
use leptos::prelude::*;

/// Nothing while nothing holds it.
#[component]
pub fn PrReasons(pr: Memo<PullRequest>) -> impl IntoView {
    move || {
        pr.with(|p| {
            (!p.evaluation.reasons.is_empty()).then(|| {
                view! {
                    <ul class="pr__reasons">
                        {p
                            .evaluation
                            .reasons
                            .iter()
                            .map(|r| view! { <li data-testid="pr-reason">{r.clone()}</li> })
                            .collect_view()}
                    </ul>
                }
            })
        })
    }
}
