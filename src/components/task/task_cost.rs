//! What a task cost: each attempt (each worker that ran it) with its cost and tokens, and
//! the task's total, since a retry is paid for too. An attempt whose cost the answer does not
//! state says so rather than reading as $0.

use crate::state::rows::positions;
use buildd_core::budget::SPEND_NOT_REPORTED;
use buildd_core::client::ClientTask;
use buildd_core::spend::{attempt_usage, task_total, tokens_text};
use leptos::prelude::*;

/// An attempt's row: its number (1 the first), status, cost and tokens.
#[derive(Clone, PartialEq)]
struct Attempt {
    number: usize,
    status: String,
    cost: String,
    tokens: String,
}

fn attempts(task: &ClientTask) -> Vec<(String, Attempt)> {
    let n = task.workers.len();
    task.workers
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let usage = attempt_usage(w);
            let attempt = Attempt {
                number: n - i,
                status: w.status.label().into_owned(),
                cost: usage.map_or_else(|| SPEND_NOT_REPORTED.into(), |u| u.cost.to_string()),
                tokens: usage.map(tokens_text).unwrap_or_default(),
            };
            (w.id.clone(), attempt)
        })
        .collect()
}

/// "Total $1.40 · 4,000 in · 600 out", or that the API does not say.
fn total(task: &ClientTask) -> String {
    match task_total(task.cost_usd.as_deref(), &task.workers) {
        Some(u) if task.workers.is_empty() => format!("Total {}", u.cost),
        Some(u) => format!("Total {} · {}", u.cost, tokens_text(u)),
        None => format!("Total: {SPEND_NOT_REPORTED}"),
    }
}

#[component]
pub fn TaskCost(task: Memo<ClientTask>) -> impl IntoView {
    let rows = Memo::new(move |_| task.with(attempts));
    let has_rows = Memo::new(move |_| rows.with(|r| !r.is_empty()));
    let at = positions(move || rows.with(|r| r.iter().map(|(id, _)| id.clone()).collect()));
    let row = move |id: String| {
        let attempt = Memo::new(move |_| {
            let i = at.with(|p| p.get(&id).copied())?;
            rows.with(|r| r.get(i).map(|(_, a)| a.clone()))
        });
        let cell = move |f: fn(&Attempt) -> String| {
            move || attempt.with(|a| a.as_ref().map(f).unwrap_or_default())
        };
        view! {
            <tr data-testid="attempt-cost">
                <th scope="row">{cell(|a| format!("Attempt {}", a.number))}</th>
                <td>{cell(|a| a.status.clone())}</td>
                <td>{cell(|a| a.cost.clone())}</td>
                <td>{cell(|a| a.tokens.clone())}</td>
            </tr>
        }
    };
    view! {
        <section class="card" data-testid="task-cost-card">
            <h2 class="card__title">"Cost"</h2>
            <table class="cost-table" class:hidden=move || !has_rows.get()>
                <thead>
                    <tr>
                        <th scope="col">"Attempt"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col">"Cost"</th>
                        <th scope="col">"Tokens"</th>
                    </tr>
                </thead>
                <tbody>
                    <For
                        each=move || {
                            rows.with(|r| r.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>())
                        }
                        key=String::clone
                        children=row
                    />
                </tbody>
            </table>
            <p class="muted small" class:hidden=has_rows>
                "No attempt has run yet."
            </p>
            <p data-testid="task-cost-total">{move || task.with(total)}</p>
        </section>
    }
}
