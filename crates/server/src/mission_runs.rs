//! `GET /api/missions/{id}/runs`: the mission's organizer runs, each labelled by its trigger,
//! and its check-ins with their outcome — newest first.

use crate::auth::Caller;
use crate::error::ApiResult;
use crate::mission_schedule::{CheckinRow, CHECKIN_COLUMNS};
use crate::mission_views::find_mission;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use buildd_core::organizer_runs::{organizer_run_label, MissionRuns, OrganizerRun};

/// Each list keeps this many entries.
const LIMIT: i64 = 50;

pub async fn runs(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<MissionRuns>> {
    let mut tx = state.db.read().await?;
    find_mission(&mut tx, &caller.team_id, &id).await?;
    type RunRow = (
        String,
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<RunRow> = sqlx::query_as(
        "SELECT t.id, t.title, t.status, t.created_at, \
           json_extract(t.context, '$.triggerSource'), json_extract(t.context, '$.triggerTaskId'), \
           trig.title, trig.mode \
         FROM tasks t LEFT JOIN tasks trig \
           ON trig.id = json_extract(t.context, '$.triggerTaskId') AND trig.mission_id = t.mission_id \
         WHERE t.mission_id = ? AND t.mode = 'planning' \
         ORDER BY t.created_at DESC, t.id DESC LIMIT ?",
    )
    .bind(&id)
    .bind(LIMIT)
    .fetch_all(&mut *tx)
    .await?;
    let runs = rows
        .into_iter()
        .map(
            |(
                task_id,
                title,
                status,
                created_at,
                source,
                trigger_task_id,
                trig_title,
                trig_mode,
            )| {
                let trigger_task = trig_title
                    .as_deref()
                    .map(|t| (t, trig_mode.as_deref() == Some("planning")));
                OrganizerRun {
                    label: organizer_run_label(source.as_deref(), trigger_task),
                    task_id,
                    title,
                    status,
                    created_at,
                    trigger_source: source,
                    trigger_task_id,
                }
            },
        )
        .collect();
    let check_ins: Vec<CheckinRow> = sqlx::query_as(&format!(
        "SELECT {CHECKIN_COLUMNS} FROM checkins WHERE mission_id = ? \
         ORDER BY at DESC, rowid DESC LIMIT ?"
    ))
    .bind(&id)
    .bind(LIMIT)
    .fetch_all(&mut *tx)
    .await?;
    Ok(Json(MissionRuns {
        runs,
        check_ins: check_ins.into_iter().map(CheckinRow::to_check_in).collect(),
    }))
}
