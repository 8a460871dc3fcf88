//! `<ChecklistForm>`: the Organizer checklist being edited as text, with its length against
//! the limit, and Reset to default.

use crate::components::mission::organizer::checked_save_tail::CheckedSaveTail;
use crate::components::mission::organizer::unstored_notice::Unstored;
use crate::state::mutation::Mutation;
use buildd_core::checkin::{CHECKLIST_LIMIT, DEFAULT_CHECKLIST};
use buildd_core::requests::missions::MissionPatch;
use leptos::prelude::*;
use serde_json::Value;

#[component]
pub fn ChecklistForm(
    /// The checklist typed; `None` closes the form.
    checklist: RwSignal<Option<String>>,
    save: Mutation<(MissionPatch, Option<String>, bool)>,
    unstored: RwSignal<Unstored>,
    /// Sends a checklist (`null` for the default); `true` turns check-ins on with it.
    send: Callback<(Value, bool)>,
) -> impl IntoView {
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
        send.run((typed(), false));
    };
    let turn_on = Callback::new(move |()| send.run((typed(), true)));
    let count = move || checklist.with(|d| d.as_ref().map_or(0, |d| d.chars().count()));
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
                    if count() > CHECKLIST_LIMIT { "small form__error" } else { "small muted" }
                }
                data-testid="checklist-count"
            >
                {move || format!("{} / {CHECKLIST_LIMIT} characters", count())}
            </p>
            <CheckedSaveTail
                save
                what="Organizer checklist"
                unstored
                turn_on
                error_testid="checklist-error"
                save_testid="save-checklist"
                cancel_testid="cancel-checklist"
                close=Callback::new(move |()| checklist.set(None))
            >
                <button
                    class="button button--ghost"
                    type="button"
                    data-testid="reset-checklist"
                    title="Use the default checklist again"
                    prop:disabled=move || save.busy()
                    on:click=move |_| {
                        checklist.set(Some(DEFAULT_CHECKLIST.to_string()));
                        send.run((Value::Null, false));
                    }
                >
                    "Reset to default"
                </button>
            </CheckedSaveTail>
        </form>
    }
}
