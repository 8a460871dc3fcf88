//! The task's latest run as it happens: what the agent is doing, its turns, tokens and
//! cost, its commits and the lines they changed, why it ended, the question it waits on
//! (answered in place), and its milestones as a timeline; earlier attempts' timelines
//! folded below. It moves with the page's polled read, so a report shows without a reload.

use super::run_timeline::RunTimeline;
use crate::components::shared::answer_agent::AnswerAgent;
use crate::state::capabilities::use_capabilities;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientTask;
use buildd_core::spend::{attempt_usage, grouped};
use buildd_core::task::TaskWorker;
use buildd_core::waiting::WaitingFor;
use buildd_core::WorkerStatus;
use leptos::prelude::*;

/// The run's figures, as (label, value), those it reported.
fn figures(run: &TaskWorker) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let count = |n: Option<i64>| n.filter(|n| *n > 0).map(|n| grouped(n as u64));
    out.extend(count(run.turns).map(|t| ("Turns", t)));
    if let Some(u) = attempt_usage(run) {
        out.push(("Cost", u.cost.to_string()));
        out.push((
            "Tokens",
            format!(
                "{} in · {} out",
                grouped(u.input_tokens),
                grouped(u.output_tokens)
            ),
        ));
    }
    out.extend(count(run.commit_count).map(|c| ("Commits", c)));
    out.extend(count(run.files_changed).map(|f| ("Files changed", f)));
    if run.lines_added.unwrap_or(0) + run.lines_removed.unwrap_or(0) > 0 {
        let lines = format!(
            "+{}/−{}",
            run.lines_added.unwrap_or(0),
            run.lines_removed.unwrap_or(0)
        );
        out.push(("Lines", lines));
    }
    out.extend(
        run.terminal_reason
            .clone()
            .map(|r| ("Ended", buildd_core::words(&r).into_owned())),
    );
    out
}

#[component]
pub fn RunView(task: Memo<ClientTask>, refresh: Callback<()>) -> impl IntoView {
    let offered = use_capabilities();
    let latest = Memo::new(move |_| task.with(|t| t.workers.first().cloned()));
    let earlier =
        Memo::new(move |_| task.with(|t| t.workers.iter().skip(1).cloned().collect::<Vec<_>>()));
    let question = Memo::new(move |_| {
        latest.with(|r| {
            let r = r.as_ref()?;
            Some((
                r.id.clone(),
                WaitingFor::of(r.waiting_for.as_ref()?)?,
                r.status.is_live(),
            ))
        })
    });
    let answer = move || {
        question.get().map(|(worker_id, asks, live)| {
            view! {
                <div class="notice notice--warn" role="status" data-testid="agent-waiting">
                    <strong>"The agent is waiting on you."</strong>
                    <AnswerAgent
                        worker_id
                        prompt=asks.question().to_string()
                        options=asks.options
                        live
                        refresh
                    />
                </div>
            }
        })
    };
    // Waiting with no question to show: Buildd gives its question and its answer only to
    // a signed-in person in its own app.
    let unseen_question = move || {
        let waits = latest.with(|r| {
            r.as_ref()
                .is_some_and(|r| r.status == WorkerStatus::WaitingInput && r.waiting_for.is_none())
        });
        (waits && !offered.has(Extra::WaitingAgents)).then(|| {
            view! {
                <p class="notice notice--warn" role="status" data-testid="agent-waiting-elsewhere">
                    "The agent is waiting on a person. This Buildd shows its question, and takes the answer, only in its own app."
                </p>
            }
        })
    };
    let no_milestones = move || {
        (!offered.has(Extra::LiveRuns)).then(|| {
            view! {
                <p class="muted small" data-testid="milestones-not-offered">
                    "This Buildd shows a run's milestones and its question only in its own app, to a signed-in person."
                </p>
            }
        })
    };
    let body = move || {
        latest.get().map(|run| {
            let action = run.current_action.clone().filter(|_| run.status.is_live());
            let figures = figures(&run);
            let run = Memo::new(move |_| latest.get().unwrap_or_else(|| run.clone()));
            view! {
                {action
                    .map(|a| {
                        view! { <p data-testid="run-current-action">{format!("Now: {a}")}</p> }
                    })}
                <dl class="run-stats" data-testid="run-stats">
                    {figures
                        .into_iter()
                        .map(|(k, v)| {
                            view! {
                                <div>
                                    <dt>{k}</dt>
                                    <dd>{v}</dd>
                                </div>
                            }
                        })
                        .collect_view()}
                </dl>
                <RunTimeline run />
            }
        })
    };
    let folded = move || {
        earlier
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, run)| {
                let n = earlier.with(Vec::len) - i;
                let run = Memo::new(move |_| run.clone());
                view! {
                    <details class="small" data-testid="earlier-run-timeline">
                        <summary>{format!("Attempt {n}'s milestones")}</summary>
                        <RunTimeline run />
                    </details>
                }
            })
            .collect_view()
    };
    view! {
        <section
            class="card"
            data-testid="live-run"
            class:hidden=move || latest.with(Option::is_none)
        >
            <h2 class="card__title">"The run"</h2>
            {answer}
            {unseen_question}
            {no_milestones}
            {body}
            {folded}
        </section>
    }
}
