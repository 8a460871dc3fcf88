//! `<ModeChoices>`: how a new mission is worked: auto, with or without hourly check-ins, or
//! manual.

use super::mission_draft::MissionDraft;
use leptos::prelude::*;

#[component]
pub fn ModeChoices(draft: RwSignal<MissionDraft>) -> impl IntoView {
    view! {
        <fieldset class="choices">
            <legend class="field__label">"How it is worked"</legend>
            <label class="checkbox">
                <input
                    type="radio"
                    name="mission-mode"
                    data-testid="new-mission-auto"
                    prop:checked=move || draft.with(|d| !d.manual)
                    on:change=move |_| draft.update(|d| d.manual = false)
                />
                "Auto: the organizer plans each next step as work finishes"
            </label>
            // Check-ins are an auto mission's, so they hide with Manual.
            <label class="checkbox checkbox--nested" class:hidden=move || draft.with(|d| d.manual)>
                <input
                    type="checkbox"
                    data-testid="new-mission-check-ins"
                    prop:checked=move || draft.with(|d| d.check_ins)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        draft.update(|d| d.check_ins = on);
                    }
                />
                "Hourly check-ins restart it when it stalls"
            </label>
            <label class="checkbox">
                <input
                    type="radio"
                    name="mission-mode"
                    data-testid="new-mission-manual"
                    prop:checked=move || draft.with(|d| d.manual)
                    on:change=move |_| draft.update(|d| d.manual = true)
                />
                "Manual: it plans when you ask"
            </label>
        </fieldset>
    }
}
