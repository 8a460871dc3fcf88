//! `PATCH /api/missions/{id}`: a person changes a mission's fields, status, budget, merge
//! policy or check-ins.

use super::checkin_fields::CheckinFields;
use super::fields::{cost_budget, merge_policy_field, orchestration_mode, work_mode};
use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use crate::flows::completion::closed;
use crate::flows::organizer::{wake, Trigger};
use crate::flows::prs::review::start_reviews;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::missions::{self, find_mission, MissionPatch};
use crate::store::schedules::{create_schedule, find_schedule, save_context, template_context};
use crate::time::now;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::lifecycle::{check_mission_transition, parse_settable_status};
use buildd_core::{Mission, MissionStatus};

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: JsonObject,
) -> ApiResult<Json<Mission>> {
    caller.require_admin()?;
    let title = body.non_blank_string("title")?;
    let description = body.string("description")?;
    let status = match body.string("status")?.value() {
        Some(s) => Some(parse_settable_status(&s).map_err(ApiError::BadRequest)?),
        None => None,
    };
    let priority = body.integer("priority")?;
    if matches!(priority, Field::Null) {
        return Err(ApiError::bad("priority must be an integer"));
    }
    let mode = match body.string("orchestrationMode")?.value() {
        Some(m) => Some(orchestration_mode(&m)?),
        None => None,
    };
    let checkins = CheckinFields::read(&body)?;
    let budget = cost_budget(&body)?;
    let policy = merge_policy_field(&body)?;
    let work = work_mode(&body)?;
    let requires_review = body.boolean("requiresReview")?;
    if matches!(requires_review, Field::Null) {
        return Err(ApiError::bad("requiresReview must be true or false"));
    }

    let mut tx = state.db.write().await?;
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    if let Some(to) = &status {
        check_mission_transition(&row.status(), to).map_err(ApiError::BadRequest)?;
    }
    let at = now();
    let patch = MissionPatch {
        title,
        description: description.patch(),
        status: status.clone(),
        priority: priority.value(),
        orchestration_mode: mode,
        merge_policy: policy.clone(),
        mode: work,
        requires_review: requires_review.clone().value(),
    };
    missions::update(&mut tx, &id, &patch, &at).await?;
    // Open PRs that the change puts under agent-review get their reviewer.
    if policy.is_some() || matches!(requires_review, Field::Set(_)) {
        start_reviews(&mut tx, Some(&id), None).await?;
    }
    // A raised budget resumes a mission that ran out of it, and it plans again.
    let mut budget_raised = false;
    if let Some(new) = &budget {
        let old = row
            .cost_budget_usd
            .as_deref()
            .and_then(|b| b.parse::<f64>().ok());
        let raised = match (new, old) {
            (Some(n), Some(o)) => *n > o,
            (None, Some(_)) => true,
            _ => false,
        };
        budget_raised = raised && row.status() == MissionStatus::BudgetExhausted;
        missions::set_budget(&mut tx, &id, *new, budget_raised).await?;
    }
    let updated = find_mission(&mut tx, &caller.team_id, &id).await?;
    // Check-in settings live on the schedule; check-ins run only while the mission is
    // active, and their settings are kept so a reopened mission resumes as it was.
    let schedule = match &updated.schedule_id {
        Some(s) => find_schedule(&mut tx, s).await?,
        None => None,
    };
    match schedule {
        Some(schedule) => {
            let mut context = template_context(&schedule.task_template);
            checkins.apply(&mut context)?;
            save_context(&mut tx, &schedule, &updated, &context).await?;
        }
        None if checkins.any() => {
            let mut context = serde_json::Map::new();
            checkins.apply(&mut context)?;
            create_schedule(&mut tx, &updated, &context, &state.checkins).await?;
        }
        None => {}
    }
    let previous = row.status();
    if status == Some(MissionStatus::Active) && previous == MissionStatus::Paused {
        let trigger = Trigger {
            source: "wake:resumed",
            task_id: None,
        };
        wake(&mut tx, &id, trigger).await?;
    }
    if budget_raised {
        let trigger = Trigger {
            source: "wake:budget_raised",
            task_id: None,
        };
        wake(&mut tx, &id, trigger).await?;
    }
    if status == Some(MissionStatus::Completed) && previous != MissionStatus::Completed {
        closed(&mut tx, &id, &at).await?;
    }
    let row = find_mission(&mut tx, &caller.team_id, &id).await?;
    tx.commit().await?;
    Ok(Json(row.to_mission()))
}
