//! Auto or manual, check-ins and the next one, Run with its outcome, pause and resume.

use crate::api;
use crate::format::{time_ago, time_until};
use crate::state::mutation::Mutation;
use buildd_core::client::{ClientMission, ClientRunOutcome};
use buildd_core::requests::missions::MissionPatch;
use buildd_core::schedule::CheckInSettings;
use buildd_core::{MissionStatus, OrchestrationMode};
use leptos::prelude::*;

/// The outcome of an action: tone, text, and a task to link to.
type Note = (&'static str, String, Option<String>);

fn run_note(outcome: ClientRunOutcome) -> Note {
    let task = outcome.task.map(|t| t.id);
    if outcome.skipped_blocked {
        let why = outcome
            .blocked_reason
            .unwrap_or_else(|| "it waits on another mission".into());
        ("warn", format!("Not started: {why}."), None)
    } else if outcome.skipped_pr_open {
        (
            "warn",
            "Not started: the mission's PR is still open.".into(),
            None,
        )
    } else if outcome.skipped_budget_exhausted {
        ("warn", "Not started: the budget is spent.".into(), None)
    } else if outcome.deduped {
        (
            "muted",
            "Already planning: this run is in flight.".into(),
            task,
        )
    } else {
        ("ok", "Organizer started.".into(), task)
    }
}

#[component]
pub fn Controls(
    mission: Memo<ClientMission>,
    settings: Memo<CheckInSettings>,
    refresh: Callback<()>,
) -> impl IntoView {
    let manual =
        Memo::new(move |_| mission.with(|m| m.orchestration_mode == OrchestrationMode::Manual));
    let status = Memo::new(move |_| mission.with(|m| m.status.clone()));
    let id = mission.with_untracked(|m| m.id.clone());
    // A mission that is not active does not plan, whatever its mode says.
    let summary = move || match status.get() {
        MissionStatus::Paused => "Paused: nothing plans or runs until you resume it.",
        MissionStatus::Completed | MissionStatus::Archived => {
            "Closed: the organizer no longer plans for this mission."
        }
        MissionStatus::BudgetExhausted => {
            "Budget spent: the organizer plans again once the budget is raised."
        }
        _ if manual.get() => "Manual: the organizer plans only when you press Run.",
        _ => "Auto: the organizer plans as soon as work finishes.",
    };
    let check_ins = move || {
        settings.with(|settings| {
            if manual.get() {
                "Check-ins: none in manual mode.".to_string()
            } else if !settings.enabled {
                "Check-ins: off.".to_string()
            } else {
                match &settings.next_check_in_at {
                    Some(next) => format!("Check-ins: on · next check-in {}.", time_until(next)),
                    None => "Check-ins: on.".to_string(),
                }
            }
        })
    };
    let last = Memo::new(move |_| {
        settings.with(|s| {
            s.last_check
                .as_ref()
                .map(|c| format!("Last check-in {}: {}", time_ago(Some(&c.at)), c.text))
        })
    });
    // Run, pause or resume, switch mode: what came of it, refused or not.
    let act = Mutation::<&'static str, Note, Note>::request(
        move |c, what: &&'static str| {
            let (id, what) = (id.clone(), *what);
            async move {
                let result = match what {
                    "run" => api::run_mission(&c, &id).await.map(run_note),
                    "pause" | "resume" => {
                        let to = if what == "pause" { "paused" } else { "active" };
                        let change = MissionPatch {
                            status: Some(MissionStatus::parse(to)),
                            ..MissionPatch::default()
                        };
                        api::update_mission(&c, &id, &change)
                            .await
                            .map(|_| ("ok", format!("Mission {to}."), None))
                    }
                    _ => {
                        let mode = if what == "manual" { "manual" } else { "auto" };
                        let change = MissionPatch {
                            orchestration_mode: Some(OrchestrationMode::parse(mode)),
                            ..MissionPatch::default()
                        };
                        api::update_mission(&c, &id, &change)
                            .await
                            .map(|_| ("ok", format!("Switched to {mode}."), None))
                    }
                };
                // Refused or not, the mission may have changed.
                refresh.run(());
                result
            }
        },
        |e| ("danger", e.refusal(), None),
    );
    let busy = move || act.busy();
    let note = move || {
        (!act.busy())
            .then(|| act.answer().or_else(|| act.error()))
            .flatten()
    };
    let active = Memo::new(move |_| status.get() == MissionStatus::Active);
    let paused = Memo::new(move |_| status.get() == MissionStatus::Paused);
    view! {
        <div class="organizer__controls">
            <p data-testid="organizer-mode">{summary}</p>
            <p class="muted small" data-testid="check-in-status">
                {check_ins}
            </p>
            {move || {
                last.get()
                    .map(|l| {
                        view! {
                            <p class="muted small" data-testid="last-check-in">
                                {l}
                            </p>
                        }
                    })
            }}
            <div class="actions">
                {move || {
                    active
                        .get()
                        .then(|| {
                            view! {
                                <button
                                    class="button button--primary"
                                    data-testid="run-organizer"
                                    prop:disabled=busy
                                    on:click=move |_| act.dispatch("run")
                                >
                                    {move || if busy() { "Working…" } else { "Run" }}
                                </button>
                            }
                        })
                }}
                {move || {
                    (active.get() || paused.get())
                        .then(|| {
                            view! {
                                <button
                                    class="button"
                                    data-testid="pause-resume"
                                    prop:disabled=busy
                                    on:click=move |_| {
                                        act.dispatch(
                                            if paused.get_untracked() { "resume" } else { "pause" },
                                        )
                                    }
                                >
                                    {move || if paused.get() { "Resume" } else { "Pause" }}
                                </button>
                            }
                        })
                }}
                <button
                    class="button button--ghost"
                    data-testid="switch-mode"
                    prop:disabled=busy
                    on:click=move |_| {
                        act.dispatch(if manual.get_untracked() { "auto" } else { "manual" })
                    }
                >
                    {move || if manual.get() { "Switch to auto" } else { "Switch to manual" }}
                </button>
            </div>
            {move || {
                note()
                    .map(|(tone, text, task)| {
                        view! {
                            <p
                                class=format!("notice notice--{tone}")
                                role="status"
                                data-testid="organizer-note"
                            >
                                {text}
                                {task
                                    .map(|t| {
                                        view! { <a href=format!("/tasks/{t}")>"Open the run"</a> }
                                    })}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
