//! Requests as buildd-core types: a body (`Body<T>`) or a query string (`Params<T>`) is
//! read into the request's type and checked by its `validate`, and every refusal is a 400
//! `{error, field}` naming the field (`buildd_core::requests::describe` words serde's own
//! errors). Malformed JSON is a 400, never a 500.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use buildd_core::requests::{check_text, describe, FieldError};
use serde_json::{Map, Value};

pub use buildd_core::requests::Request as Checked;

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

/// A JSON object body read into `T`. An empty body reads as `{}`.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: Checked> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ApiError::bad("body: could not be read")
            }
        })?;
        read_body(&bytes).map(Body)
    }
}

/// `bytes` as a `T`: a JSON object, its texts within their limits, its fields of the
/// right kinds, then `T`'s own rules.
pub fn read_body<T: Checked>(bytes: &[u8]) -> Result<T, ApiError> {
    let body = if bytes.iter().all(u8::is_ascii_whitespace) {
        Map::new()
    } else {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(ApiError::bad("Request body must be a JSON object")),
            Err(e) => return Err(ApiError::bad(format!("Invalid JSON body: {e}"))),
        }
    };
    check_text(&body)?;
    let request: T = serde_path_to_error::deserialize(Value::Object(body)).map_err(refusal)?;
    request.validate()?;
    Ok(request)
}

/// A query string read into `T` (an absent one reads as empty).
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: Checked> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let pairs = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        let params: T = serde_path_to_error::deserialize(pairs).map_err(refusal)?;
        params.validate()?;
        Ok(Params(params))
    }
}

fn refusal<E: std::fmt::Display>(e: serde_path_to_error::Error<E>) -> FieldError {
    describe(&e.path().to_string(), &e.inner().to_string())
}
