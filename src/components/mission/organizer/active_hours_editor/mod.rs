//! Active hours: when check-ins may run. One meaning everywhere: check-ins run inside the
//! window and wait outside it; work finishing still plans at any hour.

pub mod hour_select;
pub mod hours_draft;
pub mod hours_form;
pub mod zones;

use self::hours_draft::{describe, HoursDraft};
use self::hours_form::HoursForm;
use self::zones::browser_zone;
use super::unstored_notice::{checked_save, Unstored};
use crate::format::time_until;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use buildd_core::schedule::{ActiveHoursJson, CheckInSettings};
use leptos::prelude::*;

const CHECK_INS_ONLY: &str =
    "Active hours apply to check-ins only: work finishing still plans at any hour.";

#[component]
pub fn ActiveHoursEditor(
    mission_id: String,
    settings: Memo<CheckInSettings>,
    refresh: Callback<()>,
) -> impl IntoView {
    let hours = RwSignal::new(None::<HoursDraft>);
    let unstored = RwSignal::new(Unstored::No);
    let current = Memo::new(move |_| settings.with(|s| s.active_hours.clone()));
    let sentence = move || {
        current.with(|c| match c {
            Some(h) => describe(h.start, h.end, &h.timezone),
            None => "Check-ins may run at any hour.".into(),
        })
    };
    let next = move || {
        settings.with(|s| {
            s.next_check_in_at
                .clone()
                .filter(|_| s.enabled)
                .map(|n| format!("Next check-in may run {}.", time_until(&n)))
        })
    };
    let editing = Memo::new(move |_| hours.with(Option::is_some));
    // Read back after saving: Buildd keeps active hours only for a mission with check-ins.
    let save = checked_save(
        mission_id,
        unstored,
        |s, sent: &Option<ActiveHoursJson>| s.keeps_hours(sent.as_ref()),
        move || hours.set(None),
        refresh,
    );
    let open_editor = move |_| {
        save.clear();
        unstored.set(Unstored::No);
        hours.set(Some(match current.get_untracked() {
            Some(h) => HoursDraft {
                enabled: true,
                start: h.start,
                end: h.end,
                timezone: h.timezone,
            },
            None => HoursDraft {
                enabled: false,
                start: 9,
                end: 18,
                timezone: browser_zone(),
            },
        }));
    };
    let send = Callback::new(move |turn_on: bool| {
        let Some(draft) = hours.get_untracked() else {
            return;
        };
        if draft.enabled && draft.start == draft.end {
            save.fail("Start and end must differ: the window would be empty.".into());
            return;
        }
        let sent = draft.enabled.then(|| ActiveHoursJson {
            start: draft.start,
            end: draft.end,
            timezone: draft.timezone.trim().to_string(),
        });
        // Switched off, all three are cleared together.
        let change = MissionPatch {
            active_hours_start: Patch::from(sent.as_ref().map(|h| i64::from(h.start))),
            active_hours_end: Patch::from(sent.as_ref().map(|h| i64::from(h.end))),
            active_hours_timezone: Patch::from(sent.as_ref().map(|h| h.timezone.clone())),
            ..MissionPatch::default()
        };
        save.dispatch((change, sent, turn_on));
    });
    view! {
        <div class="organizer__block" data-testid="active-hours">
            <div class="organizer__head">
                <h3>"Active hours"</h3>
            </div>
            {move || {
                if editing.get() {
                    view! { <HoursForm hours save unstored send /> }.into_any()
                } else {
                    view! {
                        <p data-testid="hours-sentence">{sentence}</p>
                        {move || {
                            next()
                                .map(|n| {
                                    view! {
                                        <p class="muted small" data-testid="next-check-in">
                                            {n}
                                        </p>
                                    }
                                })
                        }}
                        <p class="muted small">{CHECK_INS_ONLY}</p>
                        <div class="actions">
                            <button class="button" data-testid="edit-hours" on:click=open_editor>
                                "Change"
                            </button>
                        </div>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
