//! A request refused for one of its fields, and the one rule that words it. The server
//! answers it as `400 {error, field}` (with `errors` when one field has several problems,
//! as a merge policy may); the dashboard checks the same rules before it sends, and places
//! the message beside the field it names.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldError {
    /// The message, a sentence that names the field.
    #[serde(rename = "error")]
    pub message: String,
    /// The body's field (its top-level key) the message is about.
    pub field: String,
    /// Each problem of the field as `{field, path, code, message}`, when it has several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<Value>,
}

impl FieldError {
    /// A refusal in words of its own: `message` already names the field.
    pub fn new(field: &str, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            field: field.to_string(),
            errors: Vec::new(),
        }
    }

    /// "`field` `what`": `FieldError::of("priority", "must be an integer")`.
    pub fn of(field: &str, what: &str) -> Self {
        Self::new(field, format!("{field} {what}"))
    }

    pub fn with_errors(mut self, errors: Vec<Value>) -> Self {
        self.errors = errors;
        self
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Words a deserializer's error at `path` (`priority`, `files[2].path`; empty or `.` for the
/// body itself). serde's own wordings become "`path` must be …"; a message of ours that
/// starts in lower case follows the path ("must be an integer from 0 to 23"), one that
/// starts in upper case is a sentence of its own.
pub fn describe(path: &str, message: &str) -> FieldError {
    let path = if path.is_empty() || path == "." {
        "body"
    } else {
        path
    };
    let field = path.split(['.', '[']).next().unwrap_or(path);
    if let Some(rest) = message.strip_prefix("missing field `") {
        let name = rest.split('`').next().unwrap_or(rest);
        return FieldError::new(name, format!("{name} is required"));
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let allowed = rest.split_once("expected ").map_or("", |(_, a)| a);
        let allowed = allowed.trim_start_matches("one of ").replace('`', "");
        return FieldError::new(field, format!("{path} must be one of: {allowed}"));
    }
    let expected = ["invalid type: ", "invalid value: ", "invalid length "]
        .iter()
        .any(|p| message.starts_with(p))
        .then(|| message.rsplit_once(", expected ").map(|(_, e)| e))
        .flatten();
    if let Some(expected) = expected {
        return FieldError::new(field, format!("{path} must be {}", in_words(expected)));
    }
    if ["invalid digit", "cannot parse integer", "number too"]
        .iter()
        .any(|p| message.starts_with(p))
    {
        return FieldError::new(field, format!("{path} must be an integer"));
    }
    match message.chars().next() {
        Some(c) if c.is_lowercase() => FieldError::new(field, format!("{path} {message}")),
        _ => FieldError::new(field, message),
    }
}

/// What serde says it expected, as a person would say it.
fn in_words(expected: &str) -> &str {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => {
            "an integer"
        }
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a sequence" => "an array",
        "a map" => "an object",
        e if e.starts_with("struct ") => "an object",
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_wordings_name_the_field() {
        let said = |path, message| describe(path, message).message;
        assert_eq!(
            said("priority", "invalid type: string \"x\", expected i64"),
            "priority must be an integer"
        );
        assert_eq!(
            said(
                "requiresReview",
                "invalid type: integer `1`, expected a boolean"
            ),
            "requiresReview must be true or false"
        );
        assert_eq!(
            said("title", "invalid type: integer `5`, expected a string"),
            "title must be a string"
        );
        assert_eq!(
            said("context", "invalid type: string \"x\", expected a map"),
            "context must be an object"
        );
        assert_eq!(
            said("limit", "invalid digit found in string"),
            "limit must be an integer"
        );
        assert_eq!(
            said(
                "kind",
                "unknown variant `x`, expected one of `open`, `answered`"
            ),
            "kind must be one of: open, answered"
        );
        let missing = describe(".", "missing field `runner`");
        assert_eq!(
            (missing.field.as_str(), missing.message.as_str()),
            ("runner", "runner is required")
        );
    }

    #[test]
    fn our_own_wordings_follow_the_path_or_stand_alone() {
        let hour = describe("activeHoursStart", "must be an integer from 0 to 23");
        assert_eq!(
            hour.message,
            "activeHoursStart must be an integer from 0 to 23"
        );
        assert_eq!(hour.field, "activeHoursStart");
        let nested = describe("files[2].path", "must be a string");
        assert_eq!(
            (nested.field.as_str(), nested.message.as_str()),
            ("files", "files[2].path must be a string")
        );
        let sentence = describe("status", "Invalid status. Allowed: pending");
        assert_eq!(sentence.message, "Invalid status. Allowed: pending");
        assert_eq!(describe("", "Body must be an object").field, "body");
    }
}
