//! Creating and changing a mission as a person does, in the caller's transaction: the row,
//! its check-in schedule, the open PRs a new review policy concerns, its budget, and what a
//! new status starts — a first organizer run, planning again on resume, or closing.

use super::budget;
use super::completion::closed;
use super::organizer::{open_run, wake, Trigger};
use super::prs::review::start_reviews;
use crate::config::CheckinConfig;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::missions::{self, find_mission, MissionPatch, MissionRow, NewMission};
use crate::store::notes::system_note;
use crate::store::schedules::{create_schedule, find_schedule, save_context, template_context};
use crate::time::now;
use buildd_core::money::Usd;
use buildd_core::requests::missions::CheckinSettings;
use buildd_core::{MissionStatus, NoteKind, TriggerSource};
use serde_json::{Map, Value};

/// Writes `mission`; `schedule` is the template context of its check-in schedule, when it
/// gets one. With `plan_now` (an active auto mission with check-ins) its first organizer run
/// opens; returns that run's task id.
pub async fn create(
    tx: &mut Tx,
    mission: &NewMission,
    schedule: Option<&Map<String, Value>>,
    plan_now: bool,
    config: &CheckinConfig,
) -> ApiResult<Option<String>> {
    missions::insert(tx, mission).await?;
    let row = find_mission(tx, &mission.team_id, &mission.id).await?;
    if let Some(context) = schedule {
        create_schedule(tx, &row, context, config).await?;
    }
    if !plan_now {
        return Ok(None);
    }
    let trigger = Trigger {
        source: TriggerSource::Created,
        task_id: None,
    };
    Ok(open_run(tx, &row, trigger)
        .await?
        .map(|run| run.task().id.clone()))
}

/// What a person changes on a mission.
pub struct MissionChange {
    pub fields: MissionPatch,
    /// The budget; `Some(None)` removes it.
    pub budget: Option<Option<Usd>>,
}

/// Applies `change` to mission `row` (its transition already checked), with the check-in
/// settings `checkins`.
pub async fn update(
    tx: &mut Tx,
    row: &MissionRow,
    change: &MissionChange,
    checkins: &CheckinSettings,
    config: &CheckinConfig,
) -> ApiResult<()> {
    let at = now();
    missions::update(tx, &row.id, &change.fields, &at).await?;
    // Open PRs that the change puts under agent-review get their reviewer.
    if change.fields.merge_policy.is_some() || change.fields.requires_review.is_some() {
        start_reviews(tx, Some(&row.id), None).await?;
    }
    let updated = find_mission(tx, &row.team_id, &row.id).await?;
    // A mission made active again stops at once if its spend already reached its budget.
    match change.budget {
        Some(budget) => budget::set(tx, &updated, budget).await?,
        None => budget::enforce(tx, &row.id).await?,
    }
    save_checkins(tx, &updated, checkins, config).await?;
    let (before, to) = (row.status(), change.fields.status.as_ref());
    if to == Some(&MissionStatus::Active) && before == MissionStatus::Paused {
        wake_for(tx, &row.id, TriggerSource::Resumed).await?;
    }
    // Armed: its tasks may be claimed now, and an auto mission plans as if just created.
    if change.fields.arm && row.is_held {
        system_note(
            tx,
            &row.team_id,
            &row.id,
            None,
            NoteKind::Update,
            "Mission armed",
            None,
        )
        .await?;
        wake_for(tx, &row.id, TriggerSource::Armed).await?;
    }
    if to == Some(&MissionStatus::Completed) && before != MissionStatus::Completed {
        closed(tx, &row.id, &at).await?;
    }
    Ok(())
}

/// Check-in settings live on the schedule; check-ins run only while the mission is active,
/// and their settings are kept so a reopened mission resumes as it was. A mission without a
/// schedule gets one when the request touches them.
async fn save_checkins(
    tx: &mut Tx,
    mission: &MissionRow,
    checkins: &CheckinSettings,
    config: &CheckinConfig,
) -> ApiResult<()> {
    let schedule = match &mission.schedule_id {
        Some(s) => find_schedule(tx, s).await?,
        None => None,
    };
    match schedule {
        Some(schedule) => {
            let mut context = template_context(&schedule.task_template);
            checkins.apply(&mut context)?;
            save_context(tx, &schedule, mission, &context).await
        }
        None if checkins.any() => {
            let mut context = Map::new();
            checkins.apply(&mut context)?;
            create_schedule(tx, mission, &context, config).await?;
            Ok(())
        }
        None => Ok(()),
    }
}

/// Plans mission `id` again, as `source` says why.
async fn wake_for(tx: &mut Tx, id: &str, source: TriggerSource) -> ApiResult<()> {
    let trigger = Trigger {
        source,
        task_id: None,
    };
    wake(tx, id, trigger).await.map(|_| ())
}
