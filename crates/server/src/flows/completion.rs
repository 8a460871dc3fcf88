//! Missions close themselves when buildd-core's `completion` says the work is done: for an
//! auto mission, once its newest organizer run proposed completion and every deliverable
//! landed; for a manual one, by the rule alone. A mission that requires review waits,
//! dormant, for a person's Close mission instead. A proposal that cannot be honoured yet
//! is said once on the feed, and the mission completes by itself when the blocker clears.
//! Closing — by itself or by a person — stops check-ins and lets dependent missions start.

use super::organizer::{wake, Trigger};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::mission_tasks::{embedded_runs, has_open_work, mission_tasks};
use crate::store::missions::{self, mission_by_id, MissionRow};
use crate::store::notes::{system_note, system_note_exists};
use crate::store::schedules::{find_schedule, save_context, template_context};
use crate::time::now;
use buildd_core::completion::{
    awaiting_verification_text, completion, completion_proposed, needs_task_list, Blocker,
    Completion,
};
use buildd_core::plan::newest_run;
use buildd_core::{MissionStatus, NoteKind, TriggerSource};

/// The feed note of a completion proposal the rule does not honour yet.
const AWAITING: &str = "Mission awaiting verification";

/// Completes mission `id` if it is active, its completion is decided and it does not require
/// review. Returns whether it completed (exactly once, however many completions race here).
pub async fn maybe_complete(tx: &mut Tx, id: &str) -> ApiResult<bool> {
    let Some(mission) = mission_by_id(tx, id).await? else {
        return Ok(false);
    };
    let open = has_open_work(tx, &mission.team_id, id).await?;
    complete_if_done(tx, &mission, open).await
}

/// [`maybe_complete`] for `mission`, whose open work (`open`: a task not finished for good)
/// the caller has just asked.
pub async fn complete_if_done(tx: &mut Tx, mission: &MissionRow, open: bool) -> ApiResult<bool> {
    let id = mission.id.as_str();
    if mission.status != MissionStatus::Active {
        return Ok(false);
    }
    // Most tasks finish while others are open: that is decided without reading them all.
    let runs = if open {
        embedded_runs(tx, &mission.team_id, id).await?
    } else {
        Vec::new()
    };
    if !needs_task_list(open, completion_proposed(&runs)) {
        return Ok(false);
    }
    let tasks = mission_tasks(tx, &mission.team_id, id).await?;
    let mode = mission.orchestration_mode.clone();
    match completion(&mode, &tasks) {
        Completion::Complete if !mission.requires_review => {}
        Completion::AwaitingVerification(why) => {
            if let Some(run) = newest_run(&tasks) {
                awaiting_verification(tx, &mission.team_id, id, &run.id, &why).await?;
            }
            return Ok(false);
        }
        _ => return Ok(false),
    }
    let at = now();
    let done = missions::complete(tx, id, &at).await?;
    if done {
        closed(tx, id, &at).await?;
    }
    Ok(done)
}

/// Posts why the organizer's proposal waits, once per proposing run.
async fn awaiting_verification(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    run_id: &str,
    why: &[Blocker],
) -> ApiResult<()> {
    if system_note_exists(tx, mission_id, run_id, AWAITING).await? {
        return Ok(());
    }
    let body = format!(
        "{}. The organizer proposed completion; the mission stays active and completes by \
         itself once this clears.",
        awaiting_verification_text(why)
    );
    system_note(
        tx,
        team_id,
        mission_id,
        Some(run_id),
        NoteKind::Warning,
        AWAITING,
        Some(body),
    )
    .await
}

/// After mission `id` completed: its check-ins stop and the missions waiting on it start.
pub async fn closed(tx: &mut Tx, id: &str, at: &str) -> ApiResult<()> {
    if let Some(mission) = mission_by_id(tx, id).await? {
        if let Some(schedule_id) = &mission.schedule_id {
            if let Some(schedule) = find_schedule(tx, schedule_id).await? {
                let context = template_context(&schedule.task_template);
                save_context(tx, &schedule, &mission, &context).await?;
            }
        }
    }
    for dependent in missions::release_dependents(tx, id, at).await? {
        let trigger = Trigger {
            source: TriggerSource::DependencyMet,
            task_id: None,
        };
        wake(tx, &dependent, trigger).await?;
    }
    Ok(())
}
