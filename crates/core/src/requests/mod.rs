//! The requests both halves share: a type per request body and query string. The
//! dashboard sends these types and checks them with the same rules before it sends; the
//! server reads them with one extractor (JSON, then the type, then [`Request::validate`]),
//! so a field renamed on one side cannot drift from the other. Unknown fields are accepted,
//! as Buildd accepts them; a PATCH field that can be cleared is a [`Patch`].

mod fields;
mod limits;
mod patch;
mod refusal;

pub mod missions;
pub mod notes;
pub mod prs;
pub mod queries;
pub mod tasks;
pub mod workers;
pub mod workspaces;

pub use fields::query_number;
pub use limits::{check_text, text_limit};
pub use patch::Patch;
pub use refusal::{describe, FieldError};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// A request body or query string.
pub trait Request: Serialize + DeserializeOwned {
    /// What the types cannot say: required fields, allowed values, ranges. Each refusal
    /// names its field.
    fn validate(&self) -> Result<(), FieldError> {
        Ok(())
    }
}

/// Everything the server will check of `request` before it looks anything up: its texts'
/// lengths and [`Request::validate`]. The dashboard calls it before sending.
pub fn check<R: Request>(request: &R) -> Result<(), FieldError> {
    if let Ok(serde_json::Value::Object(body)) = serde_json::to_value(request) {
        check_text(&body)?;
    }
    request.validate()
}

#[cfg(test)]
mod tests;
