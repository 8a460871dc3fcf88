//! One error type for every handler, mapped to Buildd's `{"error": "…"}` envelope.

use crate::db::WriteError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use buildd_core::requests::FieldError;
use buildd_core::ApiErrorBody;

#[derive(Debug)]
pub enum ApiError {
    /// 400: bad input; the message names the field.
    BadRequest(String),
    /// 401: no key, or a key this server does not know.
    Unauthorized,
    /// 403: a known key without the level the action needs.
    Forbidden(String),
    /// 404: missing, or belonging to another team.
    NotFound(&'static str),
    /// 405: the path exists, but not with this method.
    MethodNotAllowed,
    /// 409: the request conflicts with the current state.
    Conflict(String),
    /// A refusal whose body says more than the message: Buildd's `{error, hint}`,
    /// `{error, abort, …}` and the field-by-field `{error, errors}`.
    Detailed(StatusCode, serde_json::Value),
    /// 503 with `Retry-After`: the writes queued ahead would take about this long, so this
    /// one was refused before it did anything.
    Busy(std::time::Duration),
    /// 503 with `Retry-After: 1`: two servers' writes met on Postgres (a deadlock or a
    /// serialization failure) and this one was rolled back whole. The answer carries
    /// [`RolledBack`], so the request is sent through once more before a caller sees it.
    RolledBack,
    /// 500: a fault of the server, never of the input. Logged, not shown.
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// On an answer: its request's write was rolled back whole, having met another server's,
/// so the same request may be sent through again (`http::retry`).
#[derive(Clone, Copy, Debug)]
pub struct RolledBack;

/// The answer to a path no route serves.
pub async fn no_route() -> ApiError {
    ApiError::NotFound("Not found")
}

impl ApiError {
    pub fn bad(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    pub fn admin_required() -> Self {
        Self::Forbidden("Requires admin-level API key".into())
    }
}

/// What went wrong, for a log or a command line: the message an answer carries, or the
/// detail of an internal error that answers never show.
impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadRequest(m) | Self::Forbidden(m) | Self::Conflict(m) | Self::Internal(m) => {
                f.write_str(m)
            }
            Self::Unauthorized => f.write_str("Unauthorized"),
            Self::NotFound(m) => f.write_str(m),
            Self::MethodNotAllowed => f.write_str("Method not allowed on this path"),
            Self::Detailed(status, body) => write!(f, "{status}: {body}"),
            Self::Busy(backlog) => write!(f, "busy: {backlog:?} of writes queued"),
            Self::RolledBack => f.write_str("rolled back: met another server's write"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            Self::BadRequest(m) => (StatusCode::BAD_REQUEST, m),
            Self::Unauthorized => (StatusCode::UNAUTHORIZED, "Unauthorized".to_string()),
            Self::Forbidden(m) => (StatusCode::FORBIDDEN, m),
            Self::NotFound(m) => (StatusCode::NOT_FOUND, m.to_string()),
            Self::MethodNotAllowed => (
                StatusCode::METHOD_NOT_ALLOWED,
                "Method not allowed on this path".to_string(),
            ),
            Self::Conflict(m) => (StatusCode::CONFLICT, m),
            Self::Detailed(status, body) => return (status, Json(body)).into_response(),
            Self::Busy(backlog) => return busy(backlog),
            Self::RolledBack => {
                let message = "This write met another server's and was rolled back; nothing \
                               was written, try again in 1 s";
                let mut answer = unavailable(1, message.into());
                answer.extensions_mut().insert(RolledBack);
                return answer;
            }
            Self::Internal(detail) => {
                tracing::error!("internal error: {detail}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Internal server error".to_string(),
                )
            }
        };
        (status, Json(ApiErrorBody { error: message })).into_response()
    }
}

/// `503` with `Retry-After` in whole seconds, at least one: about when the queue ahead will
/// have drained.
fn busy(backlog: std::time::Duration) -> Response {
    let seconds = backlog.as_secs_f64().ceil().max(1.0) as u64;
    let message = format!(
        "The server is busy: the writes queued ahead would take about {seconds} s; \
         nothing was written, try again in {seconds} s"
    );
    unavailable(seconds, message)
}

/// `503` with `Retry-After: seconds` and `{"error": message}`.
fn unavailable(seconds: u64, message: String) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(axum::http::header::RETRY_AFTER, seconds.to_string())],
        Json(ApiErrorBody { error: message }),
    )
        .into_response()
}

impl From<WriteError> for ApiError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Busy(backlog) => Self::Busy(backlog),
            WriteError::Db(e) => e.into(),
        }
    }
}

/// 400 `{error, field}`: a request refused for one of its fields.
impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> Self {
        Self::Detailed(
            StatusCode::BAD_REQUEST,
            serde_json::to_value(e).unwrap_or_default(),
        )
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        // Two servers' writes that met on Postgres (a deadlock, or a serialization failure):
        // this one was rolled back whole, so sending it again is safe.
        let conflict = e
            .as_database_error()
            .and_then(|d| d.code())
            .is_some_and(|code| code == "40P01" || code == "40001");
        if conflict {
            metrics::counter!("buildd_db_conflicts_total").increment(1);
            tracing::warn!("a write met another's and was rolled back: {e}");
            return Self::RolledBack;
        }
        Self::Internal(format!("database: {e}"))
    }
}

impl From<serde_json::Error> for ApiError {
    fn from(e: serde_json::Error) -> Self {
        Self::Internal(format!("json: {e}"))
    }
}
