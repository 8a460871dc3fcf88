//! The dashboard's files go out as the build compressed them to browsers that accept it, as
//! they are to clients that do not, from a `dist` the server only reads; deep links load the
//! app.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use buildd_server::dashboard_files::is_content_named;
use buildd_server::{app, Db};
use http_body_util::BodyExt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tower::ServiceExt;

struct Fetched {
    status: StatusCode,
    cache: Option<String>,
    vary: Option<String>,
    encoding: Option<String>,
    content_type: String,
    body: Vec<u8>,
}

async fn fetch(router: &axum::Router, path: &str, accept: Option<&str>) -> Fetched {
    let mut req = Request::get(path);
    if let Some(accept) = accept {
        req = req.header(header::ACCEPT_ENCODING, accept);
    }
    let response = router
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let header_of = |name| {
        response
            .headers()
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap().to_string())
    };
    let encoding = header_of(header::CONTENT_ENCODING);
    let vary = header_of(header::VARY);
    let cache = header_of(header::CACHE_CONTROL);
    let content_type = header_of(header::CONTENT_TYPE).unwrap_or_default();
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    Fetched {
        status,
        cache,
        vary,
        encoding,
        content_type,
        body,
    }
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams::default();
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).unwrap();
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// `name` in `dist` with its brotli and gzip copies, as `cargo xtask build` leaves them.
fn with_copies(dist: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dist.join(name), bytes).unwrap();
    std::fs::write(dist.join(format!("{name}.br")), brotli(bytes)).unwrap();
    std::fs::write(dist.join(format!("{name}.gz")), gzip(bytes)).unwrap();
}

fn set_modified(path: &Path, at: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(at)
        .unwrap();
}

/// Every entry of `dir` with its size and modification time.
fn listing(dir: &Path) -> Vec<(String, u64, SystemTime)> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            let name = e.file_name().into_string().unwrap();
            (name, meta.len(), meta.modified().unwrap())
        })
        .collect();
    entries.sort();
    entries
}

const INDEX: &str = "<!DOCTYPE html><html><body><script src=\"/app.js\"></script></body></html>";

/// A dist with the wasm and the page compressed, the favicon not.
fn dist_in(dir: &Path) -> (PathBuf, Vec<u8>) {
    let dist = dir.join("dist");
    std::fs::create_dir(&dist).unwrap();
    let wasm: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    with_copies(&dist, "app_bg.wasm", &wasm);
    with_copies(&dist, "index.html", INDEX.as_bytes());
    std::fs::write(dist.join("favicon.svg"), "<svg/>").unwrap();
    (dist, wasm)
}

#[tokio::test]
async fn the_builds_compressed_copies_are_served_from_the_first_request() {
    let dir = tempfile::tempdir().unwrap();
    let (dist, wasm) = dist_in(dir.path());
    let db = Db::open(&dir.path().join("files.db")).await.unwrap();
    let router = app(db, Some(&dist));

    let br = fetch(&router, "/app_bg.wasm", Some("gzip, deflate, br, zstd")).await;
    assert_eq!(br.status, StatusCode::OK);
    assert_eq!(br.encoding.as_deref(), Some("br"));
    assert_eq!(br.vary.as_deref(), Some("accept-encoding"));
    assert_eq!(br.content_type, "application/wasm");
    assert!(br.body.len() < wasm.len() / 10, "{} bytes", br.body.len());
    assert_eq!(unbrotli(&br.body), wasm);

    let gz = fetch(&router, "/app_bg.wasm", Some("gzip")).await;
    assert_eq!(gz.encoding.as_deref(), Some("gzip"));
    assert_eq!(gunzip(&gz.body), wasm);

    let plain = fetch(&router, "/app_bg.wasm", None).await;
    assert_eq!(plain.encoding, None);
    assert_eq!(plain.body, wasm);

    // A deep link gets the app's page, compressed too.
    let deep = fetch(&router, "/missions/some-id", Some("br")).await;
    assert_eq!(deep.status, StatusCode::OK);
    assert_eq!(deep.encoding.as_deref(), Some("br"));
    assert_eq!(unbrotli(&deep.body), INDEX.as_bytes());
}

#[tokio::test]
async fn a_file_without_a_copy_is_served_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let (dist, _) = dist_in(dir.path());
    let db = Db::open(&dir.path().join("files.db")).await.unwrap();
    let router = app(db, Some(&dist));
    let svg = fetch(&router, "/favicon.svg", Some("gzip, deflate, br")).await;
    assert_eq!(svg.status, StatusCode::OK);
    assert_eq!(svg.encoding, None);
    assert_eq!(svg.body, b"<svg/>");
    assert!(
        svg.content_type.starts_with("image/svg+xml"),
        "{}",
        svg.content_type
    );
}

#[tokio::test]
async fn a_read_only_dist_is_served_and_never_written() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (dist, wasm) = dist_in(dir.path());
    // A copy older than its file, which an earlier server would have removed.
    set_modified(
        &dist.join("app_bg.wasm.gz"),
        SystemTime::now() - Duration::from_secs(3600),
    );
    std::fs::set_permissions(&dist, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores the mode: the listing shows that nothing was written either way.
    let before = listing(&dist);
    let db = Db::open(&dir.path().join("files.db")).await.unwrap();
    let router = app(db, Some(&dist));
    for (path, accept) in [
        ("/app_bg.wasm", Some("br")),
        ("/app_bg.wasm", Some("gzip")),
        ("/favicon.svg", Some("br")),
        ("/", Some("gzip, br")),
        ("/missions/m1", None),
    ] {
        let f = fetch(&router, path, accept).await;
        assert_eq!(f.status, StatusCode::OK, "{path}");
    }
    let wasm_br = fetch(&router, "/app_bg.wasm", Some("br")).await;
    assert_eq!(unbrotli(&wasm_br.body), wasm);
    assert_eq!(listing(&dist), before, "the server wrote into dist");
    std::fs::set_permissions(&dist, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[tokio::test]
async fn a_copy_older_than_its_file_or_without_one_is_never_served() {
    let dir = tempfile::tempdir().unwrap();
    let (dist, wasm) = dist_in(dir.path());
    let hour_ago = SystemTime::now() - Duration::from_secs(3600);
    // The wasm rebuilt by hand after its brotli copy was made; its gzip copy is current.
    std::fs::write(dist.join("app_bg.wasm.br"), brotli(b"yesterday's wasm")).unwrap();
    set_modified(&dist.join("app_bg.wasm.br"), hour_ago);
    std::fs::write(dist.join("gone.js.br"), brotli(b"its file was removed")).unwrap();
    std::fs::write(dist.join("gone.js.gz"), gzip(b"its file was removed")).unwrap();
    set_modified(&dist.join("index.html.gz"), hour_ago);
    let db = Db::open(&dir.path().join("files.db")).await.unwrap();
    let router = app(db, Some(&dist));

    let wasm_br = fetch(&router, "/app_bg.wasm", Some("gzip, br;q=1.0")).await;
    assert_eq!(
        wasm_br.encoding.as_deref(),
        Some("gzip"),
        "the current copy"
    );
    assert_eq!(gunzip(&wasm_br.body), wasm);
    let wasm_only_br = fetch(&router, "/app_bg.wasm", Some("br")).await;
    assert_eq!(wasm_only_br.encoding, None);
    assert_eq!(wasm_only_br.body, wasm);

    // Without its file, a path is a deep link: the page, from its current copy.
    let gone = fetch(&router, "/gone.js", Some("gzip, br")).await;
    assert_eq!(gone.status, StatusCode::OK);
    assert!(
        gone.content_type.starts_with("text/html"),
        "{}",
        gone.content_type
    );
    assert_ne!(gone.encoding.as_deref(), Some("gzip"));
    let page = match gone.encoding.as_deref() {
        Some("br") => unbrotli(&gone.body),
        _ => gone.body.clone(),
    };
    assert_eq!(page, INDEX.as_bytes());

    let deep = fetch(&router, "/missions/m1", Some("gzip")).await;
    assert_eq!(deep.encoding, None, "the page's gzip copy is stale");
    assert_eq!(deep.body, INDEX.as_bytes());
    let deep = fetch(&router, "/missions/m1", Some("gzip, br")).await;
    assert_eq!(deep.encoding.as_deref(), Some("br"));
    assert_eq!(unbrotli(&deep.body), INDEX.as_bytes());
}

#[tokio::test]
async fn content_named_files_are_kept_a_year_and_the_page_is_revalidated() {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir(&dist).unwrap();
    let wasm = "buildd-mission-control-dfe3236827daa2a5_bg.wasm";
    let js = "buildd-mission-control-dfe3236827daa2a5.js";
    std::fs::write(dist.join(wasm), b"\0asm").unwrap();
    std::fs::write(dist.join(js), "export default 1;").unwrap();
    std::fs::write(dist.join("index.html"), "<!DOCTYPE html><p>app</p>").unwrap();
    std::fs::write(dist.join("favicon.svg"), "<svg/>").unwrap();
    let db = Db::open(&dir.path().join("files.db")).await.unwrap();
    let router = app(db, Some(&dist));

    for name in [wasm, js] {
        let f = fetch(&router, &format!("/{name}"), Some("br")).await;
        assert_eq!(f.status, StatusCode::OK, "{name}");
        assert_eq!(
            f.cache.as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{name}"
        );
    }
    for path in ["/", "/index.html", "/favicon.svg", "/missions/m1"] {
        let f = fetch(&router, path, None).await;
        assert_eq!(f.status, StatusCode::OK, "{path}");
        assert_eq!(f.cache.as_deref(), Some("no-cache"), "{path}");
    }
    // A chunk of another build is missing, not the app's page under a year-long name.
    let gone = fetch(
        &router,
        "/buildd-mission-control-0123456789abcdef_bg.wasm",
        None,
    )
    .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_ne!(
        gone.cache.as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    assert!(
        gone.content_type.starts_with("application/json"),
        "{}",
        gone.content_type
    );

    assert!(is_content_named("main-535894452b68ae16.css"));
    // A hash with a leading zero is written one digit shorter.
    assert!(is_content_named(
        "buildd-mission-control-f3a03351f5f5326_bg.wasm"
    ));
    // The split build's chunks and their loader.
    assert!(is_content_named("chunk_6-34e39b36ded12f9f.wasm"));
    assert!(is_content_named(
        "split___mission_route_view_873364-0a6945f1c37e44ac.wasm"
    ));
    assert!(is_content_named("split-loader-28208bb2a1bf3959.js"));
    assert!(!is_content_named("split-files.json"));
    assert!(!is_content_named("index.html"));
    assert!(!is_content_named("app-notahash.js"));
    assert!(!is_content_named("app-DFE3236827DAA2A5.js"));
}
