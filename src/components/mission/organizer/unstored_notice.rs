//! Said in the editor when a save answered 200 but the mission did not keep it: what was
//! typed stays, and the step that makes this server keep it is offered.

use super::Unstored;
use crate::api;
use crate::state::write::{refused, Write};
use buildd_core::checkin_readback::HEARTBEAT_CRON;
use buildd_core::schedule::CheckInSettings;
use leptos::prelude::*;
use serde_json::Value;

#[component]
pub fn UnstoredNotice(
    /// "Organizer checklist" or "active hours".
    what: &'static str,
    state: RwSignal<Unstored>,
    busy: Signal<bool>,
    #[prop(into)] turn_on: Callback<()>,
) -> impl IntoView {
    move || {
        match state.get() {
        Unstored::No => None,
        Unstored::WithoutCheckIns => Some(
            view! {
                <div class="notice notice--warn" role="status" data-testid="unstored">
                    <p>
                        {format!("Not saved: this Buildd stores the {what} only for a mission with check-ins on. What you entered is kept here.")}
                    </p>
                    <button
                        class="button"
                        type="button"
                        data-testid="turn-on-check-ins"
                        prop:disabled=move || busy.get()
                        on:click=move |_| turn_on.run(())
                    >
                        "Turn check-ins on and save"
                    </button>
                </div>
            }
            .into_any(),
        ),
        Unstored::EvenWithCheckIns => Some(
            view! {
                <p class="notice notice--warn" role="status" data-testid="unstored">
                    {format!("Still not saved: this Buildd did not turn check-ins on for this mission (it needs a workspace for them), so it does not keep the {what}. What you entered is kept here.")}
                </p>
            }
            .into_any(),
        ),
    }
    }
}

/// Sends `body` as a PATCH of the mission (first turning check-ins on when `turn_on`),
/// reads the mission back, and closes the editor (`close`) only when `kept` says the
/// mission now holds what was sent; otherwise the editor stays open with its text.
#[allow(clippy::too_many_arguments)]
pub fn save_checked(
    write: Write,
    unstored: RwSignal<Unstored>,
    mission_id: String,
    mut body: Value,
    turn_on: bool,
    kept: impl Fn(&CheckInSettings) -> bool + 'static,
    close: impl FnOnce() + 'static,
    refresh: Callback<()>,
) {
    if turn_on {
        body["isHeartbeat"] = Value::Bool(true);
        body["cronExpression"] = Value::String(HEARTBEAT_CRON.into());
    }
    write.send(
        move |c| async move {
            api::update_mission(&c, &mission_id, body).await?;
            api::mission(&c, &mission_id).await
        },
        refused("Not saved"),
        move |mission| {
            if kept(&mission.check_in_settings()) {
                unstored.set(Unstored::No);
                close();
            } else if turn_on {
                unstored.set(Unstored::EvenWithCheckIns);
            } else {
                unstored.set(Unstored::WithoutCheckIns);
            }
            refresh.run(());
        },
    );
}
