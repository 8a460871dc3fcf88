//! The built dashboard, served at every path outside `/api` (deep links such as
//! `/missions/{id}` load the app), and compressed once next to its files (`name.br`,
//! `name.gz`): a browser that accepts brotli downloads under a third of the wasm's bytes.
//! Copies older than their file (or without one) are removed before the server answers;
//! new ones are written in the background, and until they exist a file is served as it is.
//!
//! Files whose names carry trunk's content hash (`app-<16 hex>_bg.wasm`) never change, so a
//! browser keeps them for a year without asking again; `index.html`, which names them, and
//! everything else is revalidated on every load. A hashed name that is not there is a 404,
//! never the app's page in its place.
//!
//! The page goes out with a `Content-Security-Policy` allowing this origin only: its scripts,
//! styles, fetches and images, wasm compilation (`'wasm-unsafe-eval'`), and the inline module
//! script trunk writes into `index.html` to load the wasm, by its hash, read from the file
//! (so a rebuild while the server runs is followed).

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// `router` with the dashboard in `dist` answering every path it does not route.
pub fn serve(router: Router, dist: &Path) -> Router {
    precompress_in_background(dist);
    let index = ServeFile::new(dist.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let files = ServeDir::new(dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index);
    let policy = Arc::new(PagePolicy {
        index: dist.join("index.html"),
        kept: Mutex::new(None),
    });
    router.fallback_service(
        tower::ServiceBuilder::new()
            .layer(from_fn_with_state(policy, page_policy))
            .layer(from_fn_with_state(dist.to_path_buf(), cache_policy))
            // The same path answers brotli, gzip or plain bytes.
            .layer(SetResponseHeaderLayer::appending(
                header::VARY,
                HeaderValue::from_static("accept-encoding"),
            ))
            .service(files),
    )
}

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A year for content-named files that exist; revalidation for the rest.
async fn cache_policy(State(dist): State<PathBuf>, request: Request, next: Next) -> Response {
    let name = request
        .uri()
        .path()
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let content_named = is_content_named(&name);
    if content_named && !dist.join(&name).is_file() {
        return (
            StatusCode::NOT_FOUND,
            Json(serde_json::json!({"error": "Not found"})),
        )
            .into_response();
    }
    let mut response = next.run(request).await;
    let policy = if content_named && response.status().is_success() {
        IMMUTABLE
    } else {
        "no-cache"
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

/// Everything but the page's own inline scripts: this origin only; `style` attributes (the
/// dashboard sets widths in them) but no `<style>` elements; no plugins, no `<base>`, forms
/// posting nowhere else, and no framing.
const POLICY_REST: &str = "style-src 'self'; style-src-attr 'unsafe-inline'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The page's policy, kept while `index.html` is unchanged.
struct PagePolicy {
    index: PathBuf,
    kept: Mutex<Option<((SystemTime, u64), HeaderValue)>>,
}

impl PagePolicy {
    fn current(&self) -> HeaderValue {
        let stamp = std::fs::metadata(&self.index)
            .ok()
            .and_then(|m| Some((m.modified().ok()?, m.len())));
        let mut kept = self.kept.lock().expect("policy lock");
        if let (Some(stamp), Some((at, value))) = (stamp, kept.as_ref()) {
            if *at == stamp {
                return value.clone();
            }
        }
        let page = std::fs::read_to_string(&self.index).unwrap_or_default();
        let value = HeaderValue::from_str(&page_policy_for(&page)).expect("ASCII");
        if let Some(stamp) = stamp {
            *kept = Some((stamp, value.clone()));
        }
        value
    }
}

/// The policy for a page whose HTML is `page`: its inline scripts allowed by their SHA-256.
fn page_policy_for(page: &str) -> String {
    let hashes: String = inline_scripts(page)
        .iter()
        .map(|script| {
            // The browser hashes the text as parsed, where a CR LF is a LF.
            let digest = Sha256::digest(script.replace("\r\n", "\n").as_bytes());
            let encoded = base64::engine::general_purpose::STANDARD.encode(digest);
            format!(" 'sha256-{encoded}'")
        })
        .collect();
    format!("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; {POLICY_REST}")
}

/// The text of each `<script>` without a `src`.
fn inline_scripts(page: &str) -> Vec<&str> {
    // ASCII lowercasing keeps every byte where it was.
    let lower = page.to_ascii_lowercase();
    let mut scripts = Vec::new();
    let mut at = 0;
    while let Some(found) = lower[at..].find("<script") {
        let tag = at + found + "<script".len();
        let Some(tag_end) = lower[tag..].find('>').map(|i| tag + i) else {
            break;
        };
        let Some(close) = lower[tag_end..].find("</script").map(|i| tag_end + i) else {
            break;
        };
        let attributes = &lower[tag..tag_end];
        let external = attributes
            .split(|c: char| c.is_ascii_whitespace())
            .any(|a| a.starts_with("src=") || a == "src");
        if !external {
            scripts.push(&page[tag_end + 1..close]);
        }
        at = close;
    }
    scripts
}

/// The page's policy on every HTML answer (`/`, `/index.html`, and deep links).
async fn page_policy(
    State(policy): State<Arc<PagePolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    let is_page = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if is_page {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, policy.current());
    }
    response
}

/// Whether `name` carries trunk's content hash: `<stem>-<hash>[_bg].<ext>`, the hash a
/// 64-bit one in lowercase hex without leading zeros (so up to 16 digits, rarely under 10).
pub fn is_content_named(name: &str) -> bool {
    let Some((stem, _ext)) = name.split_once('.') else {
        return false;
    };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    stem.rsplit_once('-').is_some_and(|(_, hash)| {
        (10..=16).contains(&hash.len())
            && hash
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The kinds of file worth compressing (trunk's output, the favicon).
const COMPRESSIBLE: [&str; 5] = ["wasm", "js", "css", "html", "svg"];

/// Removes the compressed copies in `dist` that are older than their file, or whose file is
/// gone, and any half-written ones: none of them may ever be served.
pub fn remove_stale(dist: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(dist)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let stale = if name.ends_with(".partial") {
            true
        } else if let Some(original) = name
            .strip_suffix(".br")
            .or_else(|| name.strip_suffix(".gz"))
        {
            let copy = std::fs::metadata(&path)?.modified()?;
            match std::fs::metadata(path.with_file_name(original)) {
                Ok(file) => file.modified()? > copy,
                Err(_) => true,
            }
        } else {
            false
        };
        if stale {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Compresses the files of `dist` in a background thread, once per directory per process,
/// after removing stale copies (synchronously, so none is served).
fn precompress_in_background(dist: &Path) {
    static STARTED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    {
        let mut started = STARTED.lock().expect("precompress lock");
        if started.iter().any(|d| d == dist) {
            return;
        }
        started.push(dist.to_path_buf());
    }
    if let Err(e) = remove_stale(dist) {
        tracing::warn!("{}: stale compressed copies left: {e}", dist.display());
    }
    let dist = dist.to_path_buf();
    std::thread::spawn(move || {
        if let Err(e) = precompress(&dist) {
            tracing::warn!("{} is served uncompressed: {e}", dist.display());
        }
    });
}

/// Writes `.br` and `.gz` next to every compressible file of `dist` that has none as new.
pub fn precompress(dist: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(dist)? {
        let path = entry?.path();
        let compressible = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| COMPRESSIBLE.contains(&e));
        if !compressible || !path.is_file() {
            continue;
        }
        let modified = std::fs::metadata(&path)?.modified()?;
        let mut source = None;
        for (suffix, compress) in [
            ("br", brotli as fn(&[u8]) -> io::Result<Vec<u8>>),
            ("gz", gzip),
        ] {
            let target = sibling(&path, suffix);
            let current = std::fs::metadata(&target)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= modified);
            if current {
                continue;
            }
            if source.is_none() {
                source = Some(std::fs::read(&path)?);
            }
            let bytes = compress(source.as_deref().unwrap_or_default())?;
            // Written aside and renamed: a request never sees half a file.
            let partial = sibling(
                &path,
                &format!(
                    "{suffix}.{}-{:?}.partial",
                    std::process::id(),
                    std::thread::current().id()
                ),
            );
            let written =
                std::fs::write(&partial, bytes).and_then(|()| std::fs::rename(&partial, &target));
            if written.is_err() {
                let _ = std::fs::remove_file(&partial);
            }
            written?;
        }
    }
    Ok(())
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    path.with_file_name(name)
}

fn brotli(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    let mut out = Vec::new();
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out)
}

fn gzip(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes)?;
    encoder.finish()
}
