//! `<HoursForm>`: the active-hours window being edited: on or off, from and to, its time
//! zone, and the sentence it will read as.

use super::hour_select::HourSelect;
use super::hours_draft::{describe, HoursDraft};
use super::zones::zones;
use crate::components::mission::organizer::checked_save_tail::CheckedSaveTail;
use crate::components::mission::organizer::unstored_notice::Unstored;
use crate::state::mutation::Mutation;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::schedule::ActiveHoursJson;
use leptos::prelude::*;

#[component]
pub fn HoursForm(
    /// The draft; `None` closes the form.
    hours: RwSignal<Option<HoursDraft>>,
    save: Mutation<(MissionPatch, Option<ActiveHoursJson>, bool)>,
    unstored: RwSignal<Unstored>,
    /// Sends the draft; `true` turns check-ins on with it.
    send: Callback<bool>,
) -> impl IntoView {
    let turn_on = Callback::new(move |()| send.run(true));
    let zone = move || hours.with(|d| d.as_ref().map(|d| d.timezone.clone()).unwrap_or_default());
    let on_save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send.run(false);
    };
    let field = move |f: fn(&HoursDraft) -> u32| move || hours.with(|d| d.as_ref().map_or(0, f));
    let set = move |f: &dyn Fn(&mut HoursDraft)| {
        hours.update(|d| {
            if let Some(d) = d {
                f(d);
            }
        })
    };
    let preview = move || {
        hours.with(|d| match d {
            Some(d) if d.enabled => describe(d.start, d.end, &d.timezone),
            _ => "Check-ins may run at any hour.".into(),
        })
    };
    view! {
        <form class="form" on:submit=on_save>
            <label class="checkbox">
                <input
                    type="checkbox"
                    data-testid="hours-enabled"
                    prop:checked=move || { hours.with(|d| d.as_ref().is_some_and(|d| d.enabled)) }
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        set(&|d| d.enabled = on);
                    }
                />
                "Limit check-ins to active hours"
            </label>
            <div
                class="hours-row"
                class:hidden=move || { !hours.with(|d| d.as_ref().is_some_and(|d| d.enabled)) }
            >
                <label for="hours-start">"From"</label>
                <HourSelect
                    value=field(|d| d.start)
                    set=move |h| set(&|d| d.start = h)
                    id="hours-start"
                />
                <label for="hours-end">"to"</label>
                <HourSelect
                    value=field(|d| d.end)
                    set=move |h| set(&|d| d.end = h)
                    id="hours-end"
                />
                <label for="hours-zone">"in"</label>
                <input
                    id="hours-zone"
                    list="hours-zones"
                    data-testid="hours-zone"
                    placeholder="Search time zones"
                    prop:value=zone
                    on:input=move |ev| {
                        let z = event_target_value(&ev);
                        set(&|d| d.timezone.clone_from(&z));
                    }
                />
                <datalist id="hours-zones">
                    {zones()
                        .into_iter()
                        .map(|z| view! { <option value=z></option> })
                        .collect_view()}
                </datalist>
            </div>
            <p class="muted small" data-testid="hours-preview">
                {preview}
            </p>
            <CheckedSaveTail
                save
                what="active hours"
                unstored
                turn_on
                error_testid="hours-error"
                save_testid="save-hours"
                close=Callback::new(move |()| hours.set(None))
            />
        </form>
    }
}
