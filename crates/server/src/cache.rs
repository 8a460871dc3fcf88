//! Responses to polled reads (the mission list and mission pages), kept per team and URL and
//! tagged with the database generation they were built at. A request at the same generation
//! gets the same bytes without rebuilding them, or a 304 when it sends the tag back.

use crate::db::Tx;
use crate::error::ApiResult;
use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// At most this many responses are kept; when full, the oldest generation goes first.
const CAPACITY: usize = 256;

#[derive(Clone, Default)]
pub struct ResponseCache {
    entries: Arc<Mutex<HashMap<String, (i64, Bytes)>>>,
}

/// The generation of the transaction's snapshot.
pub async fn generation(tx: &mut Tx) -> ApiResult<i64> {
    let (value,): (i64,) = sqlx::query_as("SELECT value FROM generation WHERE id = 1")
        .fetch_one(&mut **tx)
        .await?;
    Ok(value)
}

fn etag(generation: i64) -> HeaderValue {
    HeaderValue::from_str(&format!("\"g{generation}\"")).expect("ASCII")
}

/// What a handler does next: answer with what is kept, or build it and [`ResponseCache::keep`] it.
pub enum Lookup {
    Hit(Response),
    Miss { key: String, generation: i64 },
}

impl ResponseCache {
    /// Looks `key` up at the snapshot of `tx`: 304 when the client holds this generation,
    /// the kept bytes when they are current.
    pub async fn lookup(&self, tx: &mut Tx, key: String, request: &HeaderMap) -> ApiResult<Lookup> {
        let generation = generation(tx).await?;
        let tag = etag(generation);
        if request.get(header::IF_NONE_MATCH) == Some(&tag) {
            return Ok(Lookup::Hit(
                (StatusCode::NOT_MODIFIED, [(header::ETAG, tag)]).into_response(),
            ));
        }
        let kept = self
            .entries
            .lock()
            .expect("cache lock")
            .get(&key)
            .filter(|(g, _)| *g == generation)
            .map(|(_, bytes)| bytes.clone());
        Ok(match kept {
            Some(bytes) => Lookup::Hit(respond(generation, bytes)),
            None => Lookup::Miss { key, generation },
        })
    }

    /// Keeps the response built for a miss and answers with it.
    pub fn keep<T: Serialize>(
        &self,
        key: String,
        generation: i64,
        value: &T,
    ) -> ApiResult<Response> {
        let bytes = Bytes::from(serde_json::to_vec(value)?);
        let mut entries = self.entries.lock().expect("cache lock");
        if entries.len() >= CAPACITY && !entries.contains_key(&key) {
            let oldest = entries
                .iter()
                .min_by_key(|(_, (g, _))| *g)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                entries.remove(&oldest);
            }
        }
        entries.insert(key, (generation, bytes.clone()));
        Ok(respond(generation, bytes))
    }
}

fn respond(generation: i64, bytes: Bytes) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::ETAG, etag(generation)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        bytes,
    )
        .into_response()
}
