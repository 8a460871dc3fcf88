//! JSON-RPC 2.0 as MCP's Streamable HTTP transport carries it: one message or a batch per
//! POST; requests are answered in a JSON body, and a POST of notifications alone gets 202.

use serde_json::{json, Value};

/// The JSON-RPC error codes this endpoint answers with.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

/// One message of a POST, read as far as the transport needs.
pub enum Message {
    /// A call to answer: its `id` goes back with the answer.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification, or a client's answer to a server request: nothing goes back.
    Notification,
    /// Not a JSON-RPC message; answered with an error under whatever `id` it carried.
    Invalid { id: Value, reason: String },
}

impl Message {
    pub fn read(value: Value) -> Self {
        let Value::Object(mut object) = value else {
            return Self::Invalid {
                id: Value::Null,
                reason: "a message must be a JSON object".into(),
            };
        };
        let id = object.remove("id");
        if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Self::Invalid {
                id: id.unwrap_or(Value::Null),
                reason: "jsonrpc must be \"2.0\"".into(),
            };
        }
        let method = match object.remove("method") {
            Some(Value::String(method)) => method,
            Some(_) => {
                return Self::Invalid {
                    id: id.unwrap_or(Value::Null),
                    reason: "method must be a string".into(),
                }
            }
            // A response to a request of ours; this server sends none, so it is dropped.
            None if object.contains_key("result") || object.contains_key("error") => {
                return Self::Notification
            }
            None => {
                return Self::Invalid {
                    id: id.unwrap_or(Value::Null),
                    reason: "method is required".into(),
                }
            }
        };
        match id {
            None => Self::Notification,
            Some(id @ (Value::String(_) | Value::Number(_))) => Self::Request {
                id,
                method,
                params: object.remove("params").unwrap_or(Value::Null),
            },
            Some(_) => Self::Invalid {
                id: Value::Null,
                reason: "id must be a string or a number".into(),
            },
        }
    }
}

pub fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

pub fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}
