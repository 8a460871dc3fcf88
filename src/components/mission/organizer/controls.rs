//! Auto or manual, check-ins and the next one, Run with its outcome, pause and resume.

use super::{Note, OrganizerState};
use crate::api;
use crate::format::{time_ago, time_until};
use buildd_core::client::{ClientMission, ClientRunOutcome};
use buildd_core::schedule::CheckInSettings;
use buildd_core::{MissionStatus, OrchestrationMode};
use leptos::prelude::*;
use serde_json::json;

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
    mission: ClientMission,
    settings: CheckInSettings,
    state: OrganizerState,
    refresh: Callback<()>,
) -> impl IntoView {
    let manual = mission.orchestration_mode == OrchestrationMode::Manual;
    let status = mission.status.clone();
    let id = mission.id.clone();
    // A mission that is not active does not plan, whatever its mode says.
    let summary = match &status {
        MissionStatus::Paused => "Paused: nothing plans or runs until you resume it.".to_string(),
        MissionStatus::Completed | MissionStatus::Archived => {
            "Closed: the organizer no longer plans for this mission.".to_string()
        }
        MissionStatus::BudgetExhausted => {
            "Budget spent: the organizer plans again once the budget is raised.".to_string()
        }
        _ if manual => "Manual: the organizer plans only when you press Run.".to_string(),
        _ => "Auto: the organizer plans as soon as work finishes.".to_string(),
    };
    let check_ins = if manual {
        "Check-ins: none in manual mode.".to_string()
    } else if !settings.enabled {
        "Check-ins: off.".to_string()
    } else {
        match &settings.next_check_in_at {
            Some(next) => format!("Check-ins: on · next check-in {}.", time_until(next)),
            None => "Check-ins: on.".to_string(),
        }
    };
    let last = settings
        .last_check
        .clone()
        .map(|c| format!("Last check-in {}: {}", time_ago(Some(&c.at)), c.text));

    let act = move |what: &'static str| {
        let id = id.clone();
        state.action_note.set(None);
        state.action.send(
            move |c| async move {
                let result = match what {
                    "run" => api::run_mission(&c, &id).await.map(run_note),
                    "pause" | "resume" => {
                        let to = if what == "pause" { "paused" } else { "active" };
                        api::update_mission(&c, &id, json!({"status": to}))
                            .await
                            .map(|_| ("ok", format!("Mission {to}."), None))
                    }
                    _ => {
                        let mode = if what == "manual" { "manual" } else { "auto" };
                        api::update_mission(&c, &id, json!({"orchestrationMode": mode}))
                            .await
                            .map(|_| ("ok", format!("Switched to {mode}."), None))
                    }
                };
                // Refused or not, the mission may have changed.
                refresh.run(());
                result
            },
            |e| ("danger", e.refusal(), None),
            move |note| state.action_note.set(Some(note)),
        );
    };
    let (run, pause, switch) = (act.clone(), act.clone(), act);
    let active = status == MissionStatus::Active;
    let paused = status == MissionStatus::Paused;
    view! {
        <div class="organizer__controls">
            <p data-testid="organizer-mode">{summary}</p>
            <p class="muted small" data-testid="check-in-status">{check_ins}</p>
            {last.map(|l| view! { <p class="muted small" data-testid="last-check-in">{l}</p> })}
            <div class="actions">
                {active.then(|| view! {
                    <button
                        class="button button--primary"
                        data-testid="run-organizer"
                        prop:disabled=move || state.action.busy()
                        on:click=move |_| run("run")
                    >
                        {move || if state.action.busy() { "Working…" } else { "Run" }}
                    </button>
                })}
                {(active || paused).then(|| view! {
                    <button
                        class="button"
                        data-testid="pause-resume"
                        prop:disabled=move || state.action.busy()
                        on:click=move |_| pause(if paused { "resume" } else { "pause" })
                    >
                        {if paused { "Resume" } else { "Pause" }}
                    </button>
                })}
                <button
                    class="button button--ghost"
                    data-testid="switch-mode"
                    prop:disabled=move || state.action.busy()
                    on:click=move |_| switch(if manual { "auto" } else { "manual" })
                >
                    {if manual { "Switch to auto" } else { "Switch to manual" }}
                </button>
            </div>
            {move || state.action_note.get().or_else(|| state.action.error()).map(|(tone, text, task)| view! {
                <p class=format!("notice notice--{tone}") role="status" data-testid="organizer-note">
                    {text}
                    {task.map(|t| view! { <a href=format!("/tasks/{t}")>"Open the run"</a> })}
                </p>
            })}
        </div>
    }
}
