//! Responses to polled reads (missions, a mission's runs and notes, PRs, the team's notes),
//! kept per team and URL
//! with the database generation they were built at: a request at the same generation gets
//! the same bytes without rebuilding them. Their `ETag` is a hash of the answer itself, so it
//! moves only when what the caller sees does (another team's writes never show in it), and a
//! request that sends it back gets a 304. A browser that accepts gzip gets them compressed (a
//! 2,000-task mission page shrinks to a fifteenth), compressed once per generation.

use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::generation;
use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// At most this many responses are kept; when full, the oldest generation goes first.
const CAPACITY: usize = 256;

/// Bodies smaller than this go out as they are: compressing them saves nothing worth it.
const COMPRESS_FROM: usize = 1024;

/// A response body as built, and its gzip copy once a client asked for one.
struct Kept {
    generation: i64,
    body: Bytes,
    etag: HeaderValue,
    gzip: OnceLock<Bytes>,
}

#[derive(Clone, Default)]
pub struct ResponseCache {
    entries: Arc<Mutex<HashMap<String, Arc<Kept>>>>,
}

/// Of the answer's bytes; weak, as its gzip and plain bodies are the same data.
fn etag(body: &[u8]) -> HeaderValue {
    use std::hash::Hasher;
    let mut hasher = std::hash::DefaultHasher::new();
    hasher.write(body);
    HeaderValue::from_str(&format!("W/\"{:016x}-{:x}\"", hasher.finish(), body.len()))
        .expect("ASCII")
}

fn not_modified(tag: HeaderValue) -> Response {
    (
        StatusCode::NOT_MODIFIED,
        [
            (header::ETAG, tag),
            (header::VARY, HeaderValue::from_static("accept-encoding")),
        ],
    )
        .into_response()
}

/// Whether `Accept-Encoding` lets the answer be gzip: a `gzip` entry decides, `*` only when
/// gzip is not named, and `q=0` refuses.
fn accepts_gzip(request: &HeaderMap) -> bool {
    let (mut gzip, mut any) = (None, None);
    let codings = request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    for coding in codings {
        let mut parts = coding.split(';');
        let name = parts.next().unwrap_or_default().trim();
        let q = parts
            .find_map(|p| {
                let (key, value) = p.split_once('=')?;
                key.trim()
                    .eq_ignore_ascii_case("q")
                    .then(|| value.trim().parse::<f32>().unwrap_or(0.0))
            })
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(q);
        } else if name == "*" {
            any = Some(q);
        }
    }
    gzip.or(any).is_some_and(|q| q > 0.0)
}

/// A response that is not kept yet: what [`ResponseCache::keep`] needs to keep it.
pub struct Pending {
    key: String,
    generation: i64,
    gzip: bool,
    /// The tag the client holds, if any.
    held: Option<HeaderValue>,
}

/// What a handler does next: answer with what is kept, or build it and [`ResponseCache::keep`] it.
pub enum Lookup {
    Hit(Response),
    Miss(Pending),
}

impl ResponseCache {
    /// Looks `key` up at the snapshot of `tx`: when what is kept is current, 304 if the
    /// client holds its tag, else the kept bytes.
    pub async fn lookup(&self, tx: &mut Tx, key: String, request: &HeaderMap) -> ApiResult<Lookup> {
        let generation = generation::current(tx).await?;
        let held = request.get(header::IF_NONE_MATCH).cloned();
        let gzip = accepts_gzip(request);
        let kept = self
            .entries
            .lock()
            .expect("cache lock")
            .get(&key)
            .filter(|k| k.generation == generation)
            .cloned();
        Ok(match kept {
            Some(kept) if held.as_ref() == Some(&kept.etag) => {
                Lookup::Hit(not_modified(kept.etag.clone()))
            }
            Some(kept) => Lookup::Hit(respond(&kept, gzip)),
            None => Lookup::Miss(Pending {
                key,
                generation,
                gzip,
                held,
            }),
        })
    }

    /// Keeps the response built for a miss and answers with it (304 when the client holds
    /// what it says already).
    pub fn keep<T: Serialize>(&self, pending: Pending, value: &T) -> ApiResult<Response> {
        let body = Bytes::from(serde_json::to_vec(value)?);
        let kept = Arc::new(Kept {
            generation: pending.generation,
            etag: etag(&body),
            body,
            gzip: OnceLock::new(),
        });
        {
            let mut entries = self.entries.lock().expect("cache lock");
            if entries.len() >= CAPACITY && !entries.contains_key(&pending.key) {
                let oldest = entries
                    .iter()
                    .min_by_key(|(_, k)| k.generation)
                    .map(|(key, _)| key.clone());
                if let Some(oldest) = oldest {
                    entries.remove(&oldest);
                }
            }
            entries.insert(pending.key, kept.clone());
        }
        if pending.held.as_ref() == Some(&kept.etag) {
            return Ok(not_modified(kept.etag.clone()));
        }
        Ok(respond(&kept, pending.gzip))
    }
}

/// The cache key of a read: the team, the path, and the query as its typed request,
/// written as JSON, so no name or value can pass for another (a value holding `&` or `=`
/// once decoded stays one value) and parameters the read does not know change nothing.
pub fn read_key(team_id: &str, path: &str, query: &impl serde::Serialize) -> String {
    serde_json::json!([team_id, path, query]).to_string()
}

fn respond(kept: &Kept, gzip: bool) -> Response {
    let mut headers = vec![
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ),
        (header::ETAG, kept.etag.clone()),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::VARY, HeaderValue::from_static("accept-encoding")),
    ];
    let body = if gzip && kept.body.len() >= COMPRESS_FROM {
        headers.push((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")));
        kept.gzip.get_or_init(|| compress(&kept.body)).clone()
    } else {
        kept.body.clone()
    };
    let mut response = body.into_response();
    // `insert`, not `extend`: the body's own content type is replaced, not joined.
    for (name, value) in headers {
        response.headers_mut().insert(name, value);
    }
    response
}

fn compress(body: &[u8]) -> Bytes {
    // Fast: built once per change, and a mission page's JSON repeats its keys.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(body).expect("writing to memory");
    Bytes::from(encoder.finish().expect("writing to memory"))
}
