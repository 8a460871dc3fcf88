//! The Organizer checklist: what the organizer follows each time it plans. Shown as Markdown;
//! edited as text, kept when a save fails, guarded against leaving unsaved.

use super::unstored_notice::{checked_save, Unstored, UnstoredNotice};
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::components::shared::markdown::Markdown;
use crate::state::leave_guard::guard_unsaved;
use buildd_core::checkin::{CHECKLIST_LIMIT, DEFAULT_CHECKLIST};
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
    let send = move |value: Value, turn_on: bool| {
        let sent = value.as_str().map(str::to_string);
        let change = MissionPatch {
            heartbeat_checklist: Patch::from(sent.clone()),
            ..MissionPatch::default()
        };
        save.dispatch((change, sent, turn_on));
    };
    // What the editor holds, as sent: an empty checklist means "the default".
    let typed = move || {
        let text = checklist.get_untracked().unwrap_or_default();
        if text.trim().is_empty() {
            Value::Null
        } else {
            Value::String(text)
        }
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send(typed(), false);
    };
    let turn_on = Callback::new(move |()| send(typed(), true));
    let custom = move || settings.with(|s| s.custom_checklist);
    let enabled = move || settings.with(|s| s.enabled);
    // Re-render on opening and closing the editor only, never on a keystroke.
    let editing = Memo::new(move |_| checklist.with(Option::is_some));
    let count = move || checklist.with(|d| d.as_ref().map_or(0, |d| d.chars().count()));
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
                true => {
                    view! {
                        <form class="form" on:submit=on_submit>
                            <label for="checklist-text" class="sr-only">
                                "Organizer checklist"
                            </label>
                            <textarea
                                id="checklist-text"
                                rows="8"
                                data-testid="checklist-input"
                                prop:value=move || checklist.get().unwrap_or_default()
                                on:input=move |ev| checklist.set(Some(event_target_value(&ev)))
                            ></textarea>
                            <p
                                class=move || {
                                    if count() > CHECKLIST_LIMIT {
                                        "small form__error"
                                    } else {
                                        "small muted"
                                    }
                                }
                                data-testid="checklist-count"
                            >
                                {move || format!("{} / {CHECKLIST_LIMIT} characters", count())}
                            </p>
                            <FormError error=move || save.error() testid="checklist-error" />
                            <UnstoredNotice
                                what="Organizer checklist"
                                state=unstored
                                busy=Signal::derive(move || save.busy())
                                turn_on=turn_on
                            />
                            <FormActions
                                save_testid="save-checklist"
                                busy=move || save.busy()
                                working="Saving…"
                                cancel_testid="cancel-checklist"
                                on_cancel=move |_| {
                                    checklist.set(None);
                                    save.clear();
                                    unstored.set(Unstored::No);
                                }
                            >
                                <button
                                    class="button button--ghost"
                                    type="button"
                                    data-testid="reset-checklist"
                                    title="Use the default checklist again"
                                    prop:disabled=move || save.busy()
                                    on:click=move |_| {
                                        checklist.set(Some(DEFAULT_CHECKLIST.to_string()));
                                        send(Value::Null, false);
                                    }
                                >
                                    "Reset to default"
                                </button>
                            </FormActions>
                        </form>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
