//! A PR's checks on its head commit, each with its state and, where CI gave one, a link to
//! its log.

use crate::state::rows::positions;
use buildd_core::markdown::is_web_address;
use buildd_core::pull_request::{head_checks, CheckOutcome, PullRequest};
use leptos::prelude::*;

/// A check as shown: its name, mark, tone, state in words and log.
#[derive(Clone, PartialEq)]
struct Shown {
    name: String,
    mark: &'static str,
    tone: &'static str,
    word: String,
    log: Option<String>,
}

fn shown(pr: &PullRequest) -> Vec<Shown> {
    let head = pr.head_sha.clone().unwrap_or_default();
    head_checks(&pr.checks, &head)
        .into_iter()
        .map(|c| {
            let conclusion = || c.conclusion.as_ref().map(ToString::to_string);
            let (mark, tone, word) = match c.outcome() {
                CheckOutcome::Passed => ("✓", "ok", conclusion().unwrap_or_default()),
                CheckOutcome::Failed => ("✗", "bad", conclusion().unwrap_or_default()),
                CheckOutcome::Pending => ("…", "info", c.status.label().into_owned()),
            };
            Shown {
                name: c.name.clone(),
                mark,
                tone,
                word,
                // The run's log, where CI said where it is.
                log: c.details_url.clone().filter(|u| is_web_address(u)),
            }
        })
        .collect()
}

/// Each check on the head commit with its state, marked so it reads without colour; keyed
/// by name, so a check that changes state changes in place.
#[component]
pub fn PrChecks(#[prop(into)] pr: Signal<PullRequest>) -> impl IntoView {
    let checks = Memo::new(move |_| pr.with(shown));
    let at = positions(move || checks.with(|c| c.iter().map(|c| c.name.clone()).collect()));
    let check = move |name: String| {
        let check = Memo::new(move |_| {
            let i = at.with(|p| p.get(&name).copied())?;
            checks.with(|c| c.get(i).cloned())
        });
        move || {
            check.get().map(|c| {
                let name = match c.log {
                    Some(url) => view! {
                        <a
                            href=url
                            target="_blank"
                            rel="noopener noreferrer"
                            data-testid="pr-check-link"
                        >
                            {c.name}
                        </a>
                    }
                    .into_any(),
                    None => c.name.into_any(),
                };
                view! {
                    <li class=format!("check check--{}", c.tone) data-testid="pr-check">
                        <span aria-hidden="true">{c.mark}</span>
                        " "
                        {name}
                        {format!(": {}", c.word)}
                    </li>
                }
            })
        }
    };
    let any = Memo::new(move |_| checks.with(|c| !c.is_empty()));
    move || {
        any.get().then(|| {
            view! {
                <ul class="pr__checks" aria-label="Checks">
                    <For
                        each=move || {
                            checks.with(|c| c.iter().map(|c| c.name.clone()).collect::<Vec<_>>())
                        }
                        key=String::clone
                        children=check
                    />
                </ul>
            }
        })
    }
}
