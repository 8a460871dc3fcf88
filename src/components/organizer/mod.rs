//! The mission page's Organizer section: how the mission plans (auto or manual, Run, pause),
//! its check-ins, the Organizer checklist, active hours, and the runs timeline.

mod active_hours;
mod checklist;
mod controls;
mod runs;

pub use runs::RunsTimeline;

use crate::state::connection::Connection;
use buildd_core::client::ClientMission;
use leptos::prelude::*;

/// An edit of the active hours in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct HoursDraft {
    pub enabled: bool,
    pub start: u32,
    pub end: u32,
    pub timezone: String,
}

/// What a person is doing in the section. Lives above the refreshed view, so unsaved text
/// and messages survive a refresh and a failed save.
#[derive(Clone, Copy)]
pub struct OrganizerState {
    /// The checklist being edited (`Some` while the editor is open).
    pub checklist: RwSignal<Option<String>>,
    pub checklist_busy: RwSignal<bool>,
    pub checklist_error: RwSignal<Option<String>>,
    pub hours: RwSignal<Option<HoursDraft>>,
    pub hours_busy: RwSignal<bool>,
    pub hours_error: RwSignal<Option<String>>,
    pub action_busy: RwSignal<bool>,
    /// The outcome of the last action: tone, text, and a task to link to.
    pub action_note: RwSignal<Option<(&'static str, String, Option<String>)>>,
}

impl OrganizerState {
    pub fn new() -> Self {
        Self {
            checklist: RwSignal::new(None),
            checklist_busy: RwSignal::new(false),
            checklist_error: RwSignal::new(None),
            hours: RwSignal::new(None),
            hours_busy: RwSignal::new(false),
            hours_error: RwSignal::new(None),
            action_busy: RwSignal::new(false),
            action_note: RwSignal::new(None),
        }
    }
}

impl Default for OrganizerState {
    fn default() -> Self {
        Self::new()
    }
}

#[component]
pub fn OrganizerSection(
    connection: Connection,
    mission: ClientMission,
    state: OrganizerState,
    refresh: Callback<()>,
) -> impl IntoView {
    let settings = mission.check_in_settings();
    view! {
        <section class="card organizer" data-testid="organizer">
            <h2 class="card__title">"Organizer"</h2>
            <controls::Controls
                connection=connection.clone()
                mission=mission.clone()
                settings=settings.clone()
                state=state
                refresh=refresh
            />
            <checklist::ChecklistEditor
                connection=connection.clone()
                mission_id=mission.id.clone()
                settings=settings.clone()
                state=state
                refresh=refresh
            />
            <active_hours::ActiveHoursEditor
                connection=connection
                mission_id=mission.id.clone()
                settings=settings
                state=state
                refresh=refresh
            />
        </section>
    }
}
