//! Said in the editor when a save answered 200 but the mission did not keep it: what was
//! typed stays, and the step that makes this server keep it is offered.

use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::checkin_readback::HEARTBEAT_CRON;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use buildd_core::schedule::CheckInSettings;
use leptos::prelude::*;

/// Whether the last save was kept: Buildd answers 200 to a checklist or active-hours edit
/// of a mission without check-ins and stores nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unstored {
    #[default]
    No,
    /// Not kept: this server stores it only with check-ins on.
    WithoutCheckIns,
    /// Not kept even with check-ins turned on (Buildd needs a workspace for them).
    EvenWithCheckIns,
}

#[component]
pub fn UnstoredNotice(
    /// "Organizer checklist" or "active hours".
    what: &'static str,
    state: RwSignal<Unstored>,
    busy: Signal<bool>,
    #[prop(into)] turn_on: Callback<()>,
) -> impl IntoView {
    move || match state.get() {
        Unstored::No => None,
        Unstored::WithoutCheckIns => Some(
            view! {
                <div class="notice notice--warn" role="status" data-testid="unstored">
                    <p>
                        {format!(
                            "Not saved: this Buildd stores the {what} only for a mission with \
                             check-ins on. What you entered is kept here.",
                        )}
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
                    {format!(
                        "Still not saved: this Buildd did not turn check-ins on for this mission \
                         (it needs a workspace for them), so it does not keep the {what}. What \
                         you entered is kept here.",
                    )}
                </p>
            }
            .into_any(),
        ),
    }
}

/// A save of the mission's check-in settings that reads the mission back: its input is the
/// PATCH body, what it sets (`S`) and whether to turn check-ins on first. The editor closes
/// (`close`) only when `kept` says the mission now holds what was sent; otherwise it stays
/// open with its text, and `unstored` says why.
pub fn checked_save<S: Clone + 'static>(
    mission_id: String,
    unstored: RwSignal<Unstored>,
    kept: fn(&CheckInSettings, &S) -> bool,
    close: impl Fn() + Copy + 'static,
    refresh: Callback<()>,
) -> Mutation<(MissionPatch, S, bool)> {
    Mutation::request(
        move |c, (change, sent, turn_on): &(MissionPatch, S, bool)| {
            let (mut change, sent, turn_on, id) =
                (change.clone(), sent.clone(), *turn_on, mission_id.clone());
            if turn_on {
                change.is_heartbeat = Patch::Value(true);
                change.cron_expression = Some(HEARTBEAT_CRON.into());
            }
            async move {
                api::update_mission(&c, &id, &change).await?;
                let mission = api::mission(&c, &id).await?;
                if kept(&mission.check_in_settings(), &sent) {
                    unstored.set(Unstored::No);
                    close();
                } else if turn_on {
                    unstored.set(Unstored::EvenWithCheckIns);
                } else {
                    unstored.set(Unstored::WithoutCheckIns);
                }
                refresh.run(());
                Ok(())
            }
        },
        refused("Not saved"),
    )
}
