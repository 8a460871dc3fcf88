//! Request bodies: parsed as a JSON object, then read field by field so every error names
//! the field it is about. Malformed JSON is a 400, never a 500.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde_json::{Map, Value};

/// The largest request body taken, in bytes (a plan of hundreds of steps is far below).
pub const BODY_LIMIT: usize = 2 << 20;

/// The refusal of a body over [`BODY_LIMIT`].
pub fn too_large() -> ApiError {
    ApiError::Detailed(
        StatusCode::PAYLOAD_TOO_LARGE,
        serde_json::json!({
            "error": format!("body: larger than the {} MiB this server takes", BODY_LIMIT >> 20)
        }),
    )
}

/// How long a string field may be, by its name: names and labels are short, addresses and
/// ids bounded, written text long (a description may hold a whole brief).
pub fn text_limit(key: &str) -> usize {
    match key {
        "title" | "name" | "runner" | "conclusion" | "status" | "type" | "mode" => 500,
        "currentAction" | "defaultChoice" | "nextSuggestion" => 2_000,
        "prUrl" | "repoUrl" | "localUiUrl" | "repo" | "localPath" | "head" | "base"
        | "headBranch" | "baseBranch" | "defaultBranch" | "headSha" | "lastCommitSha" => 2_000,
        "description" | "body" => 100_000,
        "summary" | "error" | "feedback" | "message" | "heartbeatChecklist" | "bodyText" => 20_000,
        // Ids, enums, time zones and the like.
        _ => 500,
    }
}

/// A JSON object body. An empty body reads as `{}`.
pub struct JsonObject(pub Map<String, Value>);

impl<S: Send + Sync> FromRequest<S> for JsonObject {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ApiError::bad("body: could not be read")
            }
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(Map::new()));
        }
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(map)) => Ok(Self(map)),
            Ok(_) => Err(ApiError::bad("Request body must be a JSON object")),
            Err(e) => Err(ApiError::bad(format!("Invalid JSON body: {e}"))),
        }
    }
}

/// A field of a PATCH body: left out, set to null, or given a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Field<T> {
    Absent,
    Null,
    Set(T),
}

impl<T> Field<T> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }

    /// The value, or `None` when absent or null.
    pub fn value(self) -> Option<T> {
        match self {
            Field::Set(v) => Some(v),
            _ => None,
        }
    }

    /// The field as a patch applies it: `None` leaves the stored value, `Some(None)` clears it.
    pub fn patch(self) -> Option<Option<T>> {
        match self {
            Field::Absent => None,
            Field::Null => Some(None),
            Field::Set(v) => Some(Some(v)),
        }
    }
}

impl JsonObject {
    fn field<T>(
        &self,
        key: &str,
        what: &str,
        read: impl FnOnce(&Value) -> Option<T>,
    ) -> Result<Field<T>, ApiError> {
        match self.0.get(key) {
            None => Ok(Field::Absent),
            Some(Value::Null) => Ok(Field::Null),
            Some(v) => read(v)
                .map(Field::Set)
                .ok_or_else(|| ApiError::bad(format!("{key} must be {what}"))),
        }
    }

    /// A string of at most [`text_limit`] characters for its key.
    pub fn string(&self, key: &str) -> Result<Field<String>, ApiError> {
        let field = self.field(key, "a string", |v| v.as_str().map(str::to_string))?;
        if let Field::Set(text) = &field {
            let (limit, count) = (text_limit(key), text.chars().count());
            if count > limit {
                return Err(ApiError::bad(format!(
                    "{key} must be at most {limit} characters (it has {count})"
                )));
            }
        }
        Ok(field)
    }

    pub fn integer(&self, key: &str) -> Result<Field<i64>, ApiError> {
        self.field(key, "an integer", Value::as_i64)
    }

    pub fn boolean(&self, key: &str) -> Result<Field<bool>, ApiError> {
        self.field(key, "true or false", Value::as_bool)
    }

    pub fn object(&self, key: &str) -> Result<Field<Map<String, Value>>, ApiError> {
        self.field(key, "an object", |v| v.as_object().cloned())
    }

    pub fn string_array(&self, key: &str) -> Result<Field<Vec<String>>, ApiError> {
        self.field(key, "an array of strings", |v| {
            v.as_array()?
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect()
        })
    }

    /// A string that must be present and not blank, with `message` when it is not.
    pub fn required_string(&self, key: &str, message: &str) -> Result<String, ApiError> {
        match self.string(key)? {
            Field::Set(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
            _ => Err(ApiError::bad(message)),
        }
    }

    /// A string that may be left out, but not set to null or blank.
    pub fn non_blank_string(&self, key: &str) -> Result<Option<String>, ApiError> {
        match self.string(key)? {
            Field::Absent => Ok(None),
            Field::Set(s) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
            _ => Err(ApiError::bad(format!("{key} must be a non-empty string"))),
        }
    }
}
