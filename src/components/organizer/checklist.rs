//! The Organizer checklist: what the organizer follows each time it plans. Shown as Markdown;
//! edited as text, kept when a save fails, guarded against leaving unsaved.

use super::OrganizerState;
use crate::api::{self, ApiError};
use crate::components::markdown::Markdown;
use crate::state::connection::Connection;
use crate::state::leave_guard::guard_unsaved;
use buildd_core::checkin::{CHECKLIST_LIMIT, DEFAULT_CHECKLIST};
use buildd_core::schedule::CheckInSettings;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{json, Value};

fn save_error(e: &ApiError) -> String {
    format!("Not saved: {}", e.refusal())
}

#[component]
pub fn ChecklistEditor(
    connection: Connection,
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

    let save = {
        let (connection, mission_id) = (connection.clone(), mission_id.clone());
        move |value: Value| {
            let (connection, mission_id) = (connection.clone(), mission_id.clone());
            state.checklist_busy.set(true);
            state.checklist_error.set(None);
            spawn_local(async move {
                let body = json!({ "heartbeatChecklist": value });
                match api::update_mission(&connection, &mission_id, body).await {
                    Ok(()) => {
                        state.checklist.set(None);
                        refresh.run(());
                    }
                    Err(e) => state.checklist_error.set(Some(save_error(&e))),
                }
                state.checklist_busy.set(false);
            });
        }
    };
    let save_text = save.clone();
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = state.checklist.get_untracked().unwrap_or_default();
        // An empty checklist means "the default".
        let value = if text.trim().is_empty() {
            Value::Null
        } else {
            Value::String(text)
        };
        save_text(value);
    };
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
                                    state.checklist_error.set(None);
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
                            {move || state.checklist_error.get().map(|e| view! {
                                <p class="form__error" role="alert" data-testid="checklist-error">{e}</p>
                            })}
                            <div class="actions">
                                <button
                                    class="button button--primary"
                                    type="submit"
                                    data-testid="save-checklist"
                                    prop:disabled=move || state.checklist_busy.get()
                                >
                                    {move || if state.checklist_busy.get() { "Saving…" } else { "Save" }}
                                </button>
                                <button
                                    class="button"
                                    type="button"
                                    data-testid="cancel-checklist"
                                    on:click=move |_| {
                                        state.checklist.set(None);
                                        state.checklist_error.set(None);
                                    }
                                >
                                    "Cancel"
                                </button>
                                <button
                                    class="button button--ghost"
                                    type="button"
                                    data-testid="reset-checklist"
                                    title="Use the default checklist again"
                                    prop:disabled=move || state.checklist_busy.get()
                                    on:click=move |_| {
                                        state.checklist.set(Some(DEFAULT_CHECKLIST.to_string()));
                                        save_default(Value::Null);
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
