//! The task's latest run as it happens: what the agent is doing, its turns, tokens and
//! cost, its commits and the lines they changed, why it ended, the question it waits on
//! (answered in place), and its milestones as a timeline; earlier attempts' timelines
//! folded below. It moves with the page's polled read, so a report shows without a reload.

pub mod agent_question;
pub mod earlier_timelines;
pub mod figures;

use self::agent_question::AgentQuestion;
use self::earlier_timelines::EarlierTimelines;
use self::figures::figures;
use crate::components::task::run_timeline::RunTimeline;
use crate::state::capabilities::use_capabilities;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientTask;
use buildd_core::WorkerStatus;
use leptos::prelude::*;

#[component]
pub fn RunView(task: Memo<ClientTask>, refresh: Callback<()>) -> impl IntoView {
    let offered = use_capabilities();
    let latest = Memo::new(move |_| task.with(|t| t.workers.first().cloned()));
    let earlier =
        Memo::new(move |_| task.with(|t| t.workers.iter().skip(1).cloned().collect::<Vec<_>>()));
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
    view! {
        <section
            class="card"
            data-testid="live-run"
            class:hidden=move || latest.with(Option::is_none)
        >
            <h2 class="card__title">"The run"</h2>
            <AgentQuestion latest refresh />
            {unseen_question}
            {no_milestones}
            {body}
            <EarlierTimelines earlier />
        </section>
    }
}
