//! The built dashboard, served at every path outside `/api` (deep links such as
//! `/missions/{id}` load the app). `dist` is only read. `cargo xtask build` writes brotli and
//! gzip copies next to its files (`name.br`, `name.gz`), which go to browsers that accept
//! them from the first request (under a third of the wasm's bytes); a file without a copy
//! goes out as it is, and a copy older than its file, or whose file is gone, is never served.
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
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// `router` with the dashboard in `dist` answering every path it does not route.
pub fn serve(router: Router, dist: &Path) -> Router {
    if !sibling(&dist.join("index.html"), "br").exists() {
        tracing::warn!(
            "{} has no compressed copies (`cargo xtask build` writes them): its files go out uncompressed",
            dist.display()
        );
    }
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
            .layer(from_fn_with_state(dist.to_path_buf(), only_current_copies))
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

/// The encodings of the copies next to each file, as `Accept-Encoding` names them.
const COPIES: [(&str, &str); 2] = [("br", "br"), ("gz", "gzip")];

/// Answers as if the request did not accept an encoding whose copy is out of date for what
/// it asks (older than its file, or its file gone), so a `dist` changed by hand never serves
/// yesterday's bytes under today's name.
async fn only_current_copies(
    State(dist): State<PathBuf>,
    mut request: Request,
    next: Next,
) -> Response {
    let stale = stale_codings(&dist, request.uri().path());
    if !stale.is_empty() {
        let headers = request.headers_mut();
        let accepted: Vec<String> = headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|part| {
                let coding = part.split(';').next().unwrap_or_default().trim();
                let coding = coding.to_ascii_lowercase();
                let coding = if coding == "x-gzip" { "gzip" } else { &coding };
                !part.is_empty() && !stale.contains(&coding)
            })
            .map(str::to_string)
            .collect();
        headers.remove(header::ACCEPT_ENCODING);
        if let Ok(value) = HeaderValue::from_str(&accepted.join(", ")) {
            if !value.is_empty() {
                headers.insert(header::ACCEPT_ENCODING, value);
            }
        }
    }
    next.run(request).await
}

/// The codings whose copy for `path` must not be served. The file read is the one `path`
/// names, else the page (the app's deep links); a path the file server would decode first
/// gets no copy at all.
fn stale_codings(dist: &Path, path: &str) -> Vec<&'static str> {
    let relative = path.trim_start_matches('/');
    let plain = !relative.contains('%')
        && !relative.contains('\\')
        && relative.split('/').all(|s| s != ".." && s != ".");
    if !plain {
        return COPIES.iter().map(|(_, coding)| *coding).collect();
    }
    let page = dist.join("index.html");
    let named = dist.join(relative);
    let file = if relative.is_empty() {
        page.clone()
    } else if named.is_dir() {
        named.join("index.html")
    } else {
        named
    };
    COPIES
        .iter()
        .filter(|(suffix, _)| {
            if file.is_file() {
                !usable(&file, suffix)
            } else {
                // A copy without its file, or else the page in its place.
                sibling(&file, suffix).exists() || !usable(&page, suffix)
            }
        })
        .map(|(_, coding)| *coding)
        .collect()
}

/// Whether serving `file` for an encoding never gives stale bytes: its copy is absent (the
/// file goes out as it is) or at least as new as the file.
fn usable(file: &Path, suffix: &str) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified());
    match modified(&sibling(file, suffix)) {
        Err(_) => true,
        Ok(copy) => modified(file).is_ok_and(|file| copy >= file),
    }
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    path.with_file_name(name)
}
