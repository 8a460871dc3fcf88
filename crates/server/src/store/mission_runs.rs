//! A mission's organizer runs as `GET /api/missions/{id}/runs` lists them: newest first,
//! each labelled by what started it (a trigger task is named by its title).

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::organizer_runs::{organizer_run_label, OrganizerRun};
use buildd_core::{TaskMode, TaskStatus, TriggerSource};

/// The mission's newest `limit` organizer runs.
pub async fn organizer_runs(
    tx: &mut Tx,
    mission_id: &str,
    limit: i64,
) -> ApiResult<Vec<OrganizerRun>> {
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
    let rows: Vec<RunRow> = sql::query_as(
        "SELECT t.id, t.title, t.status, t.created_at, \
           json_extract(t.context, '$.triggerSource'), json_extract(t.context, '$.triggerTaskId'), \
           trig.title, trig.mode \
         FROM tasks t LEFT JOIN tasks trig \
           ON trig.id = json_extract(t.context, '$.triggerTaskId') AND trig.mission_id = t.mission_id \
         WHERE t.mission_id = ? AND t.mode = 'planning' \
         ORDER BY t.created_at DESC, t.id DESC LIMIT ?",
    )
    .bind(mission_id)
    .bind(limit)
    .fetch_all(tx)
    .await?;
    Ok(rows
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
                let by_organizer = trig_mode.map(TaskMode::from) == Some(TaskMode::Planning);
                let trigger_task = trig_title.as_deref().map(|t| (t, by_organizer));
                let source = source.map(TriggerSource::from);
                OrganizerRun {
                    label: organizer_run_label(source.as_ref(), trigger_task),
                    task_id,
                    title,
                    status: TaskStatus::from(status),
                    created_at,
                    trigger_source: source,
                    trigger_task_id,
                }
            },
        )
        .collect())
}
