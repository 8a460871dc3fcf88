//! What a tool call answers, and the reading of its `params`.

use super::api::Refusal;
use serde_json::{json, Map, Value};

/// A tool result: text for the agent, marked as an error when the action did not happen.
pub struct Reply {
    pub text: String,
    pub is_error: bool,
}

/// An action's outcome; `?` on an API answer turns a refusal into an error reply.
pub type Step = Result<Reply, Reply>;

impl Reply {
    pub fn ok(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: false,
        }
    }

    pub fn error(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: true,
        }
    }

    /// `tools/call`'s result.
    pub fn to_result(&self) -> Value {
        let mut out = json!({"content": [{"type": "text", "text": self.text}]});
        if self.is_error {
            out["isError"] = Value::Bool(true);
        }
        out
    }
}

impl From<Refusal> for Reply {
    fn from(refusal: Refusal) -> Self {
        Reply::error(format!("Error: {}", refusal.message()))
    }
}

/// A tool call's `params` object.
pub struct Params<'a>(pub &'a Map<String, Value>);

impl<'a> Params<'a> {
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    /// A non-empty string.
    pub fn text(&self, key: &str) -> Option<&'a str> {
        self.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    }

    pub fn required(&self, key: &str) -> Result<&'a str, Reply> {
        self.text(key)
            .ok_or_else(|| Reply::error(format!("Error: {key} is required")))
    }

    /// Copies each of `keys` that is present into `body`, unchanged.
    pub fn copy_into(&self, body: &mut Value, keys: &[&str]) {
        for key in keys {
            if let Some(value) = self.get(key) {
                body[*key] = value.clone();
            }
        }
    }
}

/// `id` made safe as one path segment or query value.
pub fn segment(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Buildd's named priorities, and numbers clamped to 0–10.
pub fn priority(value: Option<&Value>) -> Option<i64> {
    let value = value?;
    if let Some(n) = value.as_f64() {
        return Some(n.round().clamp(0.0, 10.0) as i64);
    }
    let text = value.as_str()?.trim().to_lowercase();
    if let Ok(n) = text.parse::<f64>() {
        return Some(n.round().clamp(0.0, 10.0) as i64);
    }
    Some(match text.as_str() {
        "lowest" => 1,
        "low" => 3,
        "high" => 7,
        "highest" => 9,
        "critical" | "urgent" => 10,
        _ => 5,
    })
}

/// A field of an answer as text, empty when absent.
pub fn field<'v>(value: &'v Value, key: &str) -> &'v str {
    value[key].as_str().unwrap_or("")
}
