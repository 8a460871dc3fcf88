//! A mission's organizer runs: `POST /api/missions/{id}/run` starts one, and
//! `GET /api/missions/{id}/runs` lists them, each labelled by its trigger, with its
//! check-ins and their outcome — newest first.

use crate::db::work;
use crate::error::{ApiError, ApiResult};
use crate::flows::budget;
use crate::flows::organizer::{dependency_blocked, open_run, RunOutcome, Trigger};
use crate::http::cache::Lookup;
use crate::http::caller::Caller;
use crate::http::state::AppState;
use crate::store::checkins;
use crate::store::mission_runs::organizer_runs;
use crate::store::missions::{find_mission, mission_by_id};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use buildd_core::budget::{exhausts, stopped_reason};
use buildd_core::organizer_runs::MissionRuns;
use buildd_core::{MissionStatus, TriggerSource};
use serde_json::{json, Value};

/// Each list keeps this many entries.
const LIMIT: i64 = 50;

pub async fn runs(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut tx = state.db.read().await?;
    // Found first: an ETag of another team's (or no) mission never answers 304.
    find_mission(&mut tx, &caller.team_id, &id).await?;
    let key = format!("{}/missions/{id}/runs", caller.team_id);
    let pending = match state.cache.lookup(&mut tx, key, &headers).await? {
        Lookup::Hit(response) => return Ok(response),
        Lookup::Miss(pending) => pending,
    };
    let answer = MissionRuns {
        runs: organizer_runs(&mut tx, &id, LIMIT).await?,
        check_ins: checkins::recent(&mut tx, &id, LIMIT).await?,
    };
    state.cache.keep(pending, &answer)
}

/// `POST /api/missions/{id}/run`: 201 `{task}` when a run starts, 200 `{task, deduped}` when
/// one is in flight, 200 `{task: null, skippedBlocked, blockedReason}` while the mission it
/// depends on has not landed, 200 `{task: null, skippedBudgetExhausted, reason}` when its
/// spend reached its budget, 400 when the mission is not active (out of budget: saying so). Active hours and manual
/// mode do not stop it.
pub async fn run(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    caller.require_admin()?;
    state
        .db
        .transact(
            caller.lane(),
            work!(|tx| {
                let mission = find_mission(tx, &caller.team_id, &id).await?;
                // As Buildd: spend that reached the budget stops the mission instead of planning.
                if exhausts(&mission.status(), mission.spend(), mission.budget()) {
                    budget::enforce(tx, &id).await?;
                    let reason = stopped_reason(mission.spend(), mission.budget());
                    return Ok((
                        StatusCode::OK,
                        Json(
                            json!({"task": null, "skippedBudgetExhausted": true, "reason": reason}),
                        ),
                    ));
                }
                if mission.status() == MissionStatus::BudgetExhausted {
                    return Err(ApiError::bad(format!(
                    "Cannot run mission with status: budget_exhausted. Only active missions can be \
                     run, and {}.",
                    stopped_reason(mission.spend(), mission.budget())
                )));
                }
                if mission.status() != MissionStatus::Active {
                    return Err(ApiError::bad(format!(
                        "Cannot run mission with status: {}. Only active missions can be run.",
                        mission.status
                    )));
                }
                if dependency_blocked(&mission) {
                    let blocker = match &mission.depends_on_mission_id {
                        Some(b) => mission_by_id(tx, b).await?,
                        None => None,
                    };
                    let reason =
                        blocker.map(|b| format!("Waiting for mission \"{}\" to land", b.title));
                    return Ok((
                        StatusCode::OK,
                        Json(
                            json!({"task": null, "skippedBlocked": true, "blockedReason": reason}),
                        ),
                    ));
                }
                let outcome = open_run(
                    tx,
                    &mission,
                    Trigger {
                        source: TriggerSource::Manual,
                        task_id: None,
                    },
                )
                .await?
                .ok_or_else(|| {
                    ApiError::bad(
                        "workspaceId: the mission has no workspace for its organizer to plan in",
                    )
                })?;
                let task = serde_json::to_value(outcome.task().to_task())?;
                Ok(match outcome {
                    RunOutcome::Started(_) => (StatusCode::CREATED, Json(json!({"task": task}))),
                    RunOutcome::Deduped(_) => {
                        (StatusCode::OK, Json(json!({"task": task, "deduped": true})))
                    }
                })
            }),
        )
        .await
}
