//! The mission page's Organizer section: how the mission plans (auto or manual, Run, pause),
//! its check-ins, the Organizer checklist, active hours, and the runs timeline.

mod active_hours_editor;
mod checked_save_tail;
mod checklist_editor;
mod controls;
pub mod runs_timeline;
mod unstored_notice;

use buildd_core::client::ClientMission;
use leptos::prelude::*;

#[component]
pub fn OrganizerSection(mission: Memo<ClientMission>, refresh: Callback<()>) -> impl IntoView {
    let settings = Memo::new(move |_| mission.with(ClientMission::check_in_settings));
    let mission_id = mission.with_untracked(|m| m.id.clone());
    view! {
        <section class="card organizer" data-testid="organizer">
            <h2 class="card__title">"Organizer"</h2>
            <controls::Controls mission settings refresh />
            <checklist_editor::ChecklistEditor mission_id=mission_id.clone() settings refresh />
            <active_hours_editor::ActiveHoursEditor mission_id settings refresh />
        </section>
    }
}
