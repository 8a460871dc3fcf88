//! The mission page's Organizer section: how the mission plans (auto or manual, Run, pause),
//! its check-ins, the Organizer checklist, active hours, and the runs timeline.

mod active_hours_editor;
mod checklist_editor;
mod controls;
pub mod runs_timeline;
mod unstored_notice;

use crate::state::write::Write;
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

/// Whether the last save was kept: Buildd answers 200 to a checklist or active-hours edit
/// of a mission without check-ins and stores nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unstored {
    #[default]
    No,
    /// Not kept: this server stores it only with check-ins on.
    WithoutCheckIns,
    /// Not kept even with check-ins turned on (Buildd needs a workspace for them).
    EvenWithCheckIns,
}

/// The outcome of the last action: tone, text, and a task to link to.
pub type Note = (&'static str, String, Option<String>);

/// What a person is doing in the section. Lives above the refreshed view, so unsaved text
/// and messages survive a refresh and a failed save.
#[derive(Clone, Copy, Default)]
pub struct OrganizerState {
    /// The checklist being edited (`Some` while the editor is open).
    pub checklist: RwSignal<Option<String>>,
    pub checklist_save: Write,
    pub checklist_unstored: RwSignal<Unstored>,
    pub hours: RwSignal<Option<HoursDraft>>,
    pub hours_save: Write,
    pub hours_unstored: RwSignal<Unstored>,
    /// Run, pause or resume, switch mode.
    pub action: Write<Note>,
    pub action_note: RwSignal<Option<Note>>,
}

#[component]
pub fn OrganizerSection(
    mission: ClientMission,
    state: OrganizerState,
    refresh: Callback<()>,
) -> impl IntoView {
    let settings = mission.check_in_settings();
    view! {
        <section class="card organizer" data-testid="organizer">
            <h2 class="card__title">"Organizer"</h2>
            <controls::Controls
                mission=mission.clone()
                settings=settings.clone()
                state=state
                refresh=refresh
            />
            <checklist_editor::ChecklistEditor
                mission_id=mission.id.clone()
                settings=settings.clone()
                state=state
                refresh=refresh
            />
            <active_hours_editor::ActiveHoursEditor
                mission_id=mission.id.clone()
                settings=settings
                state=state
                refresh=refresh
            />
        </section>
    }
}
