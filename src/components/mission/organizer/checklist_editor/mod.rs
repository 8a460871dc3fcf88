//! The Organizer checklist: what the organizer follows each time it plans. Shown as Markdown;
//! edited as text, kept when a save fails, guarded against leaving unsaved.

pub mod checklist_form;

use self::checklist_form::ChecklistForm;
use super::unstored_notice::{checked_save, Unstored};
use crate::components::shared::markdown::Markdown;
use crate::state::leave_guard::guard_unsaved;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use buildd_core::schedule::CheckInSettings;
use leptos::prelude::*;
use serde_json::Value;

#[component]
pub fn ChecklistEditor(
    mission_id: String,
    settings: Memo<CheckInSettings>,
    refresh: Callback<()>,
) -> impl IntoView {
    // The checklist being edited (`Some` while the editor is open).
    let checklist = RwSignal::new(None::<String>);
    let unstored = RwSignal::new(Unstored::No);
    let saved = Memo::new(move |_| settings.with(|s| s.checklist.clone()));
    let dirty = Signal::derive(move || {
        checklist.with(|d| d.as_ref().is_some_and(|d| saved.with(|s| d != s)))
    });
    guard_unsaved(dirty);
    // Read back after saving: Buildd keeps a checklist only for a mission with check-ins.
    let save = checked_save(
        mission_id,
        unstored,
        |s, sent: &Option<String>| s.keeps_checklist(sent.as_deref()),
        move || checklist.set(None),
        refresh,
    );
    let send = Callback::new(move |(value, turn_on): (Value, bool)| {
        let sent = value.as_str().map(str::to_string);
        let change = MissionPatch {
            heartbeat_checklist: Patch::from(sent.clone()),
            ..MissionPatch::default()
        };
        save.dispatch((change, sent, turn_on));
    });
    let custom = move || settings.with(|s| s.custom_checklist);
    let enabled = move || settings.with(|s| s.enabled);
    // Re-render on opening and closing the editor only, never on a keystroke.
    let editing = Memo::new(move |_| checklist.with(Option::is_some));
    view! {
        <div class="organizer__block" data-testid="checklist">
            <div class="organizer__head">
                <h3>"Organizer checklist"</h3>
                <span class="muted small">
                    {move || if custom() { "custom" } else { "default" }}
                    {move || if enabled() { " · check-ins on" } else { " · check-ins off" }}
                </span>
            </div>
            <p class="muted small">
                "What the organizer follows each time it plans the next step."
            </p>
            {move || match editing.get() {
                false => {
                    view! {
                        <Markdown source=saved />
                        <div class="actions">
                            <button
                                class="button"
                                data-testid="edit-checklist"
                                on:click=move |_| {
                                    save.clear();
                                    unstored.set(Unstored::No);
                                    checklist.set(Some(saved.get_untracked()));
                                }
                            >
                                "Edit"
                            </button>
                        </div>
                    }
                        .into_any()
                }
                true => view! { <ChecklistForm checklist save unstored send /> }.into_any(),
            }}
        </div>
    }
}
