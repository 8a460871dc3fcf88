//! Insights: the rows of the team's weekly figures and busiest hours. This server answers
//! them (`GET /api/insights`); a hosted Buildd has no such read, so there its task list is
//! read and what it allows (failures and retries) taken from it by buildd-core's rule.

use super::{get, ApiError, Connection};
use buildd_core::insights::team::{of_buildd_tasks, InsightsQuery, TeamInsights};
use buildd_core::insights::what_if::RecordedPrs;
use buildd_core::requests;
use buildd_core::TaskList;

/// The rows of the `weeks` up to `now_ms`'s; `server` when it offers `/api/insights`.
pub async fn insights(
    conn: &Connection,
    weeks: i64,
    now_ms: i64,
    server: bool,
) -> Result<TeamInsights, ApiError> {
    let query = InsightsQuery { weeks: Some(weeks) };
    requests::check(&query).map_err(ApiError::Invalid)?;
    if server {
        return get(conn, &format!("/api/insights?weeks={weeks}")).await;
    }
    let list: TaskList = get(conn, "/api/tasks").await?;
    let since = query.since(now_ms);
    let since_ms = buildd_core::insights::ms_of(&since).unwrap_or(0);
    Ok(TeamInsights {
        activity: of_buildd_tasks(&list.tasks, since_ms),
        since,
        ..TeamInsights::default()
    })
}

/// The team's PRs of the last `weeks` with every fact their merge decision reads, which the
/// merge policy's what-if replays (this server's `GET /api/insights/prs`).
pub async fn recorded_prs(conn: &Connection, weeks: i64) -> Result<RecordedPrs, ApiError> {
    let query = InsightsQuery { weeks: Some(weeks) };
    requests::check(&query).map_err(ApiError::Invalid)?;
    get(conn, &format!("/api/insights/prs?weeks={weeks}")).await
}
