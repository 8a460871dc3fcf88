//! Activity: a page of the team's tasks under a query. This server filters and pages them
//! (`GET /api/activity`); a hosted Buildd's task list takes no filters, so there the list
//! is read whole and filtered and paged here, by buildd-core's same rules.

use super::{encode, get, ApiError, Connection};
use buildd_core::activity::{of_buildd_list, ActivityPage, ActivityQuery};
use buildd_core::requests;
use buildd_core::TaskList;
use serde::Serialize;

/// Where the filters are applied: the server's `/api/activity`, or here on Buildd's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActivitySource {
    /// The server offers `GET /api/activity` (`Extra::Activity`).
    Server,
    /// A hosted Buildd: `GET /api/tasks`, filtered and paged in the browser.
    BuilddList,
}

/// `query` as an address's query string, `a=1&b=two`; what it leaves out is absent.
pub fn query_string<Q: Serialize>(query: &Q) -> String {
    let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(query) else {
        return String::new();
    };
    fields
        .into_iter()
        .filter_map(|(name, value)| {
            let text = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Null => return None,
                other => other.to_string(),
            };
            Some(format!("{name}={}", encode(&text)))
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The page of the team's tasks `query` asks for, from `source`. A query the server would
/// refuse is refused here, without the round trip.
pub async fn activity(
    conn: &Connection,
    query: &ActivityQuery,
    source: ActivitySource,
) -> Result<ActivityPage, ApiError> {
    requests::check(query).map_err(ApiError::Invalid)?;
    match source {
        ActivitySource::Server => {
            let qs = query_string(query);
            let path = if qs.is_empty() {
                "/api/activity".to_string()
            } else {
                format!("/api/activity?{qs}")
            };
            get(conn, &path).await
        }
        ActivitySource::BuilddList => {
            let list: TaskList = get(conn, "/api/tasks").await?;
            Ok(of_buildd_list(&list.tasks, query))
        }
    }
}
