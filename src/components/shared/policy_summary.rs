//! Every setting of a merge policy, in words: the tier and, for its tier, the size cap and
//! protected paths or the reviewer, what approval does and the paths that go to a person;
//! and when a waiting PR is reported as stalled.

use buildd_core::merge_policy::{MergePolicy, DEFAULT_MAX_LINES, DEFAULT_STALL_NOTIFY_MINUTES};
use buildd_core::MergeTier;
use leptos::prelude::*;

/// A tier as a person reads it in a list of choices.
pub fn tier_label(tier: &MergeTier) -> &'static str {
    match tier {
        MergeTier::Human => "Human: a person merges",
        MergeTier::AgentReview => "Agent review: a reviewer agent decides",
        _ => "Auto-threshold: merges on green CI when the rails pass",
    }
}

fn paths(list: &[String]) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// The settings as (what, value) rows.
pub fn settings(policy: &MergePolicy) -> Vec<(&'static str, String)> {
    let mut rows = vec![("Tier", tier_label(&policy.tier).to_string())];
    match policy.tier {
        MergeTier::AutoThreshold => {
            let threshold = policy.threshold.clone().unwrap_or_default();
            rows.push((
                "Size cap",
                match threshold.max_lines {
                    Some(n) => format!("{n} changed lines"),
                    None => format!("{DEFAULT_MAX_LINES} changed lines (default)"),
                },
            ));
            rows.push(("Protected paths", paths(&threshold.deny_paths)));
        }
        MergeTier::AgentReview => {
            let review = policy.agent_review.clone();
            rows.push((
                "Reviewer role",
                review
                    .as_ref()
                    .map(|r| r.reviewer_role.clone())
                    .unwrap_or_default(),
            ));
            let gate = review
                .as_ref()
                .and_then(|r| r.gate_condition.clone())
                .unwrap_or_default();
            rows.push(("On approval", gate.label().into_owned()));
            rows.push((
                "Paths for a person",
                paths(&review.map(|r| r.escalate_to_paths).unwrap_or_default()),
            ));
        }
        _ => {}
    }
    rows.push((
        "Stall notice",
        match policy.stall_notify_minutes {
            Some(n) => format!("after {n} minutes waiting"),
            None => format!("after {DEFAULT_STALL_NOTIFY_MINUTES} minutes waiting (default)"),
        },
    ));
    rows
}

#[component]
pub fn PolicySummary(#[prop(into)] policy: Signal<MergePolicy>) -> impl IntoView {
    view! {
        <dl class="facts" data-testid="policy-summary">
            {move || {
                policy
                    .with(settings)
                    .into_iter()
                    .map(|(what, value)| {
                        view! {
                            <div class="facts__row">
                                <dt>{what}</dt>
                                <dd>{value}</dd>
                            </div>
                        }
                    })
                    .collect_view()
            }}
        </dl>
    }
}
