//! The Organizer checklist: what the organizer follows each time it plans. Shown as Markdown;
//! edited as text, kept when a save fails, guarded against leaving unsaved.

use super::unstored_notice::{save_checked, UnstoredNotice};
use super::{OrganizerState, Unstored};
use crate::components::shared::markdown::Markdown;
use crate::state::leave_guard::guard_unsaved;
use buildd_core::checkin::{CHECKLIST_LIMIT, DEFAULT_CHECKLIST};
use buildd_core::schedule::CheckInSettings;
use leptos::prelude::*;
use serde_json::{json, Value};

#[component]
pub fn ChecklistEditor(
    mission_id: String,
    settings: CheckInSettings,
    state: OrganizerState,
    refresh: Callback<()>,
) -> impl IntoView {
    let saved = settings.checklist.clone();
    let dirty = {
        let saved = saved.clone();
        Signal::derive(move || {
            state
                .checklist
                .with(|d| d.as_ref().is_some_and(|d| *d != saved))
        })
    };
    guard_unsaved(dirty);

    // Read back after saving: Buildd keeps a checklist only for a mission with check-ins.
    let save = move |value: Value, turn_on: bool| {
        let sent = value.as_str().map(str::to_string);
        save_checked(
            state.checklist_save,
            state.checklist_unstored,
            mission_id.clone(),
            json!({ "heartbeatChecklist": value }),
            turn_on,
            move |s| s.keeps_checklist(sent.as_deref()),
            move || state.checklist.set(None),
            refresh,
        );
    };
    // What the editor holds, as sent: an empty checklist means "the default".
    let typed = move || {
        let text = state.checklist.get_untracked().unwrap_or_default();
        if text.trim().is_empty() {
            Value::Null
        } else {
            Value::String(text)
        }
    };
    let save_text = save.clone();
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        save_text(typed(), false);
    };
    let save_on = save.clone();
    let turn_on = Callback::new(move |()| save_on(typed(), true));
    let edit_from = saved.clone();
    let custom = settings.custom_checklist;
    let enabled = settings.enabled;
    // Re-render on opening and closing the editor only, never on a keystroke.
    let editing = Memo::new(move |_| state.checklist.with(Option::is_some));
    let count = move || {
        state
            .checklist
            .with(|d| d.as_ref().map_or(0, |d| d.chars().count()))
    };
    view! {
        <div class="organizer__block" data-testid="checklist">
            <div class="organizer__head">
                <h3>"Organizer checklist"</h3>
                <span class="muted small">
                    {if custom { "custom" } else { "default" }}
                    {if enabled { " · check-ins on" } else { " · check-ins off" }}
                </span>
            </div>
            <p class="muted small">"What the organizer follows each time it plans the next step."</p>
            {move || match editing.get() {
                false => {
                    let edit_from = edit_from.clone();
                    view! {
                        <Markdown source=saved.clone() />
                        <div class="actions">
                            <button
                                class="button"
                                data-testid="edit-checklist"
                                on:click=move |_| {
                                    state.checklist_save.clear_error();
                                    state.checklist_unstored.set(Unstored::No);
                                    state.checklist.set(Some(edit_from.clone()));
                                }
                            >
                                "Edit"
                            </button>
                        </div>
                    }
                    .into_any()
                }
                true => {
                    let save_default = save.clone();
                    view! {
                        <form class="form" on:submit=on_submit.clone()>
                            <label for="checklist-text" class="sr-only">"Organizer checklist"</label>
                            <textarea
                                id="checklist-text"
                                rows="8"
                                data-testid="checklist-input"
                                prop:value=move || state.checklist.get().unwrap_or_default()
                                on:input=move |ev| state.checklist.set(Some(event_target_value(&ev)))
                            ></textarea>
                            <p
                                class=move || { if count() > CHECKLIST_LIMIT { "small form__error" } else { "small muted" } }
                                data-testid="checklist-count"
                            >
                                {move || format!("{} / {CHECKLIST_LIMIT} characters", count())}
                            </p>
                            {move || state.checklist_save.error().map(|e| view! {
                                <p class="form__error" role="alert" data-testid="checklist-error">{e}</p>
                            })}
                            <UnstoredNotice
                                what="Organizer checklist"
                                state=state.checklist_unstored
                                busy=Signal::derive(move || state.checklist_save.busy())
                                turn_on=turn_on
                            />
                            <div class="actions">
                                <button
                                    class="button button--primary"
                                    type="submit"
                                    data-testid="save-checklist"
                                    prop:disabled=move || state.checklist_save.busy()
                                >
                                    {move || if state.checklist_save.busy() { "Saving…" } else { "Save" }}
                                </button>
                                <button
                                    class="button"
                                    type="button"
                                    data-testid="cancel-checklist"
                                    on:click=move |_| {
                                        state.checklist.set(None);
                                        state.checklist_save.clear_error();
                                        state.checklist_unstored.set(Unstored::No);
                                    }
                                >
                                    "Cancel"
                                </button>
                                <button
                                    class="button button--ghost"
                                    type="button"
                                    data-testid="reset-checklist"
                                    title="Use the default checklist again"
                                    prop:disabled=move || state.checklist_save.busy()
                                    on:click=move |_| {
                                        state.checklist.set(Some(DEFAULT_CHECKLIST.to_string()));
                                        save_default(Value::Null, false);
                                    }
                                >
                                    "Reset to default"
                                </button>
                            </div>
                        </form>
                    }
                    .into_any()
                }
            }}
        </div>
    }
}
