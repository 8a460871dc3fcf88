//! Paging, filter and flag parameters read the same everywhere: a value out of range or of
//! the wrong kind is a 400 naming the parameter, never quietly replaced.

use crate::error::{ApiError, ApiResult};
use buildd_core::note::NOTE_TYPES;
use std::collections::HashMap;

pub type Params = HashMap<String, String>;

/// `limit`, an integer from 1 to `max`, when given.
pub fn limit(query: &Params, max: i64) -> ApiResult<Option<i64>> {
    query
        .get("limit")
        .map(|v| {
            v.parse::<i64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| ApiError::bad(format!("limit must be an integer from 1 to {max}")))
        })
        .transpose()
}

/// `offset`, an integer of at least 0; 0 when not given.
pub fn offset(query: &Params) -> ApiResult<i64> {
    match query.get("offset") {
        None => Ok(0),
        Some(v) => v
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| ApiError::bad("offset must be an integer of at least 0")),
    }
}

/// `type`, one of the note types, when given.
pub fn note_type(query: &Params) -> ApiResult<Option<&str>> {
    match query.get("type") {
        Some(t) if !NOTE_TYPES.contains(&t.as_str()) => Err(ApiError::bad(format!(
            "type must be one of: {}",
            NOTE_TYPES.join(", ")
        ))),
        t => Ok(t.map(String::as_str)),
    }
}

/// `force=true|false` (absent is false), as deleting and reassigning a task take it.
pub fn force(query: &Params) -> ApiResult<bool> {
    match query.get("force").map(String::as_str) {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(_) => Err(ApiError::bad("force must be true or false")),
    }
}
