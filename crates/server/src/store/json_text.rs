//! JSON kept as text in SQLite columns, read leniently: a column the server wrote is valid,
//! and an unreadable one reads as its default rather than failing the whole answer.

use serde_json::Value;

pub(super) fn json_or(text: Option<&str>, default: Value) -> Value {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(default)
}

pub(super) fn json_opt(text: Option<&str>) -> Option<Value> {
    text.and_then(|t| serde_json::from_str(t).ok())
}

pub(super) fn strings(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_default()
}
