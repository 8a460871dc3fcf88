//! Auto or manual, check-ins and the next one, Run with its outcome, pause and resume.

pub mod control_buttons;
pub mod organizer_action;
pub mod organizer_note;
pub mod run_note;

use self::control_buttons::ControlButtons;
use self::organizer_action::organizer_action;
use self::organizer_note::OrganizerNote;
use crate::format::{time_ago, time_until};
use buildd_core::client::ClientMission;
use buildd_core::schedule::CheckInSettings;
use buildd_core::{MissionStatus, OrchestrationMode};
use leptos::prelude::*;

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
    let act = organizer_action(id, refresh);
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
            <ControlButtons act manual active paused />
            <OrganizerNote act />
        </div>
    }
}
