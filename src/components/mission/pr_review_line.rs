//! The latest agent review of a PR: the reviewer at work, or its verdict and what came of it.

use buildd_core::pull_request::{PrReview, PullRequest};
use buildd_core::PrReviewOutcome;
use leptos::prelude::*;

/// Says what a review decided, for the PR list.
fn headline(review: &PrReview, pr: &PullRequest) -> String {
    let confidence = review
        .confidence
        .map(|c| format!(" (confidence {c:.2})"))
        .unwrap_or_default();
    let n = review.iteration;
    match (review.verdict.as_deref(), review.outcome.as_ref()) {
        (_, None) => format!("Reviewer at work on review {n}"),
        (_, Some(PrReviewOutcome::Merged)) => {
            format!("Approved by the reviewer{confidence} → merged")
        }
        (_, Some(PrReviewOutcome::AwaitingPerson)) => {
            format!("Approved by the reviewer{confidence} → waits for you to merge")
        }
        (_, Some(PrReviewOutcome::AwaitingCi)) => {
            format!("Approved by the reviewer{confidence} → merges when CI passes")
        }
        (_, Some(PrReviewOutcome::Retry)) => format!(
            "Changes requested{confidence} on review {n} → fix queued on {}",
            pr.head_branch.as_deref().unwrap_or("its branch")
        ),
        (None, Some(PrReviewOutcome::Escalated)) if review.reviewer_task_id.is_none() => {
            "Escalated to you before review".into()
        }
        (None, Some(PrReviewOutcome::Escalated)) => "Escalated to you".into(),
        (Some(verdict), Some(PrReviewOutcome::Escalated)) => {
            format!("Escalated to you (the reviewer said {verdict}{confidence})")
        }
        (_, Some(_)) => "Verdict not used".into(),
    }
}

#[component]
pub fn PrReviewLine(#[prop(into)] pr: Signal<PullRequest>) -> impl IntoView {
    let review =
        Memo::new(move |_| pr.with(|pr| pr.reviews.first().map(|r| (headline(r, pr), r.clone()))));
    move || {
        review.get().map(|(text, review)| {
            view! {
                <div class="pr-review" data-testid="pr-review">
                    <p class="pr-review__head">
                        <strong>{text}</strong>
                        {review
                            .reviewer_task_id
                            .map(|t| {
                                view! {
                                    " · "
                                    <a href=format!("/tasks/{t}")>"reviewer task"</a>
                                }
                            })}
                    </p>
                    {(!review.reasons.is_empty())
                        .then(|| {
                            view! {
                                <ul class="pr__reasons">
                                    {review
                                        .reasons
                                        .into_iter()
                                        .map(|r| {
                                            view! { <li data-testid="pr-review-reason">{r}</li> }
                                        })
                                        .collect_view()}
                                </ul>
                            }
                        })}
                    {review
                        .summary
                        .map(|s| view! { <p class="muted small pr-review__summary">{s}</p> })}
                </div>
            }
        })
    }
}
