//! Active hours: when check-ins may run. One meaning everywhere: check-ins run inside the
//! window and wait outside it; work finishing still plans at any hour.

use super::unstored_notice::{checked_save, Unstored, UnstoredNotice};
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::format::time_until;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use buildd_core::schedule::{ActiveHoursJson, CheckInSettings};
use leptos::prelude::*;

/// The browser's time zone, the default for a new window.
fn browser_zone() -> String {
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new())
        .resolved_options();
    js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|z| z.as_string())
        .unwrap_or_else(|| "UTC".into())
}

/// Every IANA zone the browser knows (`Intl.supportedValuesOf("timeZone")`).
fn zones() -> Vec<String> {
    let intl = js_sys::Reflect::get(&js_sys::global(), &"Intl".into()).ok();
    let list = intl.and_then(|intl| {
        let f = js_sys::Reflect::get(&intl, &"supportedValuesOf".into()).ok()?;
        let f: js_sys::Function = f.dyn_into().ok()?;
        f.call1(&intl, &"timeZone".into()).ok()
    });
    match list.and_then(|l| l.dyn_into::<js_sys::Array>().ok()) {
        Some(a) => a.iter().filter_map(|z| z.as_string()).collect(),
        None => vec!["UTC".into()],
    }
}

use wasm_bindgen::JsCast;

fn hh(h: u32) -> String {
    format!("{h:02}:00")
}

/// "Check-ins run between 09:00 and 18:00 America/New_York; outside these hours they wait."
pub fn describe(start: u32, end: u32, timezone: &str) -> String {
    let overnight = if start > end { " (overnight)" } else { "" };
    format!(
        "Check-ins run between {} and {} {timezone}{overnight}; outside these hours they wait.",
        hh(start),
        hh(end)
    )
}

fn hour_select(
    value: impl Fn() -> u32 + Send + 'static,
    set: impl Fn(u32) + 'static,
    id: &'static str,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <select
            id=id
            data-testid=testid
            prop:value=move || value().to_string()
            on:change=move |ev| set(event_target_value(&ev).parse().unwrap_or(0))
        >
            {(0..24).map(|h| view! { <option value=h.to_string()>{hh(h)}</option> }).collect_view()}
        </select>
    }
}

const CHECK_INS_ONLY: &str =
    "Active hours apply to check-ins only: work finishing still plans at any hour.";

/// An edit of the active hours in progress.
#[derive(Clone, Debug, PartialEq)]
struct HoursDraft {
    enabled: bool,
    start: u32,
    end: u32,
    timezone: String,
}

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
    let send = move |turn_on: bool| {
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
    };
    let turn_on = Callback::new(move |()| send(true));
    let zone = move || hours.with(|d| d.as_ref().map(|d| d.timezone.clone()).unwrap_or_default());
    let on_save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send(false);
    };
    let field = move |f: fn(&HoursDraft) -> u32| move || hours.with(|d| d.as_ref().map_or(0, f));
    let preview = move || {
        hours.with(|d| match d {
            Some(d) if d.enabled => describe(d.start, d.end, &d.timezone),
            _ => "Check-ins may run at any hour.".into(),
        })
    };
    view! {
        <div class="organizer__block" data-testid="active-hours">
            <div class="organizer__head">
                <h3>"Active hours"</h3>
            </div>
            {move || {
                if editing.get() {
                    view! {
                        <form class="form" on:submit=on_save>
                            <label class="checkbox">
                                <input
                                    type="checkbox"
                                    data-testid="hours-enabled"
                                    prop:checked=move || {
                                        hours.with(|d| d.as_ref().is_some_and(|d| d.enabled))
                                    }
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        hours
                                            .update(|d| {
                                                if let Some(d) = d {
                                                    d.enabled = on;
                                                }
                                            });
                                    }
                                />
                                "Limit check-ins to active hours"
                            </label>
                            <div
                                class="hours-row"
                                class:hidden=move || {
                                    !hours.with(|d| d.as_ref().is_some_and(|d| d.enabled))
                                }
                            >
                                <label for="hours-start">"From"</label>
                                {hour_select(
                                    field(|d| d.start),
                                    move |h| {
                                        hours
                                            .update(|d| {
                                                if let Some(d) = d {
                                                    d.start = h;
                                                }
                                            })
                                    },
                                    "hours-start",
                                    "hours-start",
                                )}
                                <label for="hours-end">"to"</label>
                                {hour_select(
                                    field(|d| d.end),
                                    move |h| {
                                        hours
                                            .update(|d| {
                                                if let Some(d) = d {
                                                    d.end = h;
                                                }
                                            })
                                    },
                                    "hours-end",
                                    "hours-end",
                                )}
                                <label for="hours-zone">"in"</label>
                                <input
                                    id="hours-zone"
                                    list="hours-zones"
                                    data-testid="hours-zone"
                                    placeholder="Search time zones"
                                    prop:value=zone
                                    on:input=move |ev| {
                                        let z = event_target_value(&ev);
                                        hours
                                            .update(|d| {
                                                if let Some(d) = d {
                                                    d.timezone = z;
                                                }
                                            });
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
                            <FormError error=move || save.error() testid="hours-error" />
                            <UnstoredNotice
                                what="active hours"
                                state=unstored
                                busy=Signal::derive(move || save.busy())
                                turn_on=turn_on
                            />
                            <FormActions
                                save_testid="save-hours"
                                busy=move || save.busy()
                                working="Saving…"
                                on_cancel=move |_| {
                                    hours.set(None);
                                    save.clear();
                                    unstored.set(Unstored::No);
                                }
                            />
                        </form>
                    }
                        .into_any()
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
