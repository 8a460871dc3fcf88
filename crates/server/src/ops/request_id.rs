//! Every request has an id: the caller's `x-request-id` when it is short and plain, else a
//! new one. It is on every answer, in the request's log line, and inside the JSON of a 5xx,
//! so a person reporting a fault can quote it and an operator find the line.

use crate::time::new_id;
use axum::body::HttpBody as _;
use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest id taken from a caller.
const MAX_LEN: usize = 64;

/// The largest 5xx body the id is written into; a larger one goes out as it is.
const BODY_LIMIT: u64 = 64 * 1024;

/// The id of the request, for the log line.
#[derive(Clone, Debug)]
pub struct RequestId(pub HeaderValue);

impl RequestId {
    pub fn as_str(&self) -> &str {
        self.0.to_str().unwrap_or_default()
    }
}

/// A caller's id, kept only when it cannot disturb a log line: letters, digits and
/// `-_.:+/=@`, at most 64 of them.
fn acceptable(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_LEN
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:+/=@".contains(b))
}

pub async fn assign(mut request: Request, next: Next) -> Response {
    let id = request
        .headers()
        .get(&X_REQUEST_ID)
        .filter(|v| acceptable(v))
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_str(&new_id()).expect("a uuid is ASCII"));
    request.headers_mut().insert(&X_REQUEST_ID, id.clone());
    request.extensions_mut().insert(RequestId(id.clone()));
    let mut response = next.run(request).await;
    if response.status().is_server_error() {
        response = with_id_in_body(response, &id).await;
    }
    response.headers_mut().insert(&X_REQUEST_ID, id);
    response
}

/// A 5xx whose body is a JSON object gets `"requestId"` in it; any other goes out as it is.
async fn with_id_in_body(response: Response, id: &HeaderValue) -> Response {
    let headers = response.headers();
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let small = response
        .body()
        .size_hint()
        .exact()
        .is_some_and(|n| n <= BODY_LIMIT);
    if !is_json || !small || headers.contains_key(header::CONTENT_ENCODING) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = match to_bytes(body, BODY_LIMIT as usize).await {
        Ok(bytes) => bytes,
        Err(_) => return Response::from_parts(parts, Body::empty()),
    };
    let body = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(mut fields)) => {
            let id = id.to_str().unwrap_or_default().to_string();
            fields.insert("requestId".into(), id.into());
            parts.headers.remove(header::CONTENT_LENGTH);
            Body::from(serde_json::Value::Object(fields).to_string())
        }
        _ => Body::from(bytes),
    };
    Response::from_parts(parts, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_plain_ids_are_taken() {
        let take = |s: &str| acceptable(&HeaderValue::from_str(s).unwrap());
        assert!(take("b7e1c0de-0a4f-4c1e-9d1e-2f3a4b5c6d7e"));
        assert!(take("req_01HZX:edge/7+q=="));
        assert!(!take(""));
        assert!(!take("two words"));
        assert!(!take("a\"quote"));
        assert!(!take("line\tbreak"));
        assert!(!take(&"x".repeat(65)));
        assert!(take(&"x".repeat(64)));
    }
}
