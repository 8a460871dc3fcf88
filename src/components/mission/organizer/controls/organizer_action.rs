//! The organizer's actions on a mission: Run, pause or resume, switch mode.

use super::run_note::{run_note, Note};
use crate::api;
use crate::state::mutation::Mutation;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::{MissionStatus, OrchestrationMode};
use leptos::prelude::*;

/// Sends "run", "pause", "resume", "manual" or "auto" for mission `id`; what came of it,
/// refused or not, is a note. The mission is read again either way.
pub fn organizer_action(id: String, refresh: Callback<()>) -> Mutation<&'static str, Note, Note> {
    Mutation::<&'static str, Note, Note>::request(
        move |c, what: &&'static str| {
            let (id, what) = (id.clone(), *what);
            async move {
                let result = match what {
                    "run" => api::run_mission(&c, &id).await.map(run_note),
                    "pause" | "resume" => {
                        let to = if what == "pause" {
                            MissionStatus::Paused
                        } else {
                            MissionStatus::Active
                        };
                        let change = MissionPatch {
                            status: Some(to.clone()),
                            ..MissionPatch::default()
                        };
                        api::update_mission(&c, &id, &change)
                            .await
                            .map(|_| ("ok", format!("Mission {to}."), None))
                    }
                    _ => {
                        let mode = if what == "manual" {
                            OrchestrationMode::Manual
                        } else {
                            OrchestrationMode::Auto
                        };
                        let change = MissionPatch {
                            orchestration_mode: Some(mode.clone()),
                            ..MissionPatch::default()
                        };
                        api::update_mission(&c, &id, &change)
                            .await
                            .map(|_| ("ok", format!("Switched to {mode}."), None))
                    }
                };
                // Refused or not, the mission may have changed.
                refresh.run(());
                result
            }
        },
        |e| ("danger", e.refusal(), None),
    )
}
