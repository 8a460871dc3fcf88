//! The dashboard's files go out compressed to browsers that accept it, as they are to
//! clients that do not, and deep links load the app.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use buildd_server::dashboard_files::{is_content_named, precompress, remove_stale};
use buildd_server::{app, Db};
use http_body_util::BodyExt;
use std::io::Read;
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

#[tokio::test]
async fn dashboard_files_are_served_compressed_when_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir(&dist).unwrap();
    let wasm: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let index = "<!DOCTYPE html><html><body><script src=\"/app.js\"></script></body></html>";
    std::fs::write(dist.join("app_bg.wasm"), &wasm).unwrap();
    std::fs::write(dist.join("index.html"), index).unwrap();
    std::fs::write(dist.join("notes.txt"), "not a dashboard file").unwrap();
    precompress(&dist).unwrap();
    assert!(
        !dist.join("notes.txt.br").exists(),
        "only the app's kinds of file"
    );
    let written = std::fs::metadata(dist.join("app_bg.wasm.br"))
        .unwrap()
        .modified()
        .unwrap();
    precompress(&dist).unwrap();
    let again = std::fs::metadata(dist.join("app_bg.wasm.br"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(written, again, "current copies are kept");

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
    assert_eq!(unbrotli(&deep.body), index.as_bytes());
}

#[test]
fn stale_and_half_written_copies_are_removed_before_anything_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::write(d.join("app.js"), "new app").unwrap();
    std::fs::write(d.join("app.js.br"), "old app, compressed").unwrap();
    std::fs::File::options()
        .write(true)
        .open(d.join("app.js.br"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    std::fs::write(d.join("gone.js.gz"), "its file was removed").unwrap();
    std::fs::write(d.join("index.html.br.1-x.partial"), "half").unwrap();
    std::fs::write(d.join("index.html"), "page").unwrap();
    std::fs::write(d.join("index.html.gz"), "current copy").unwrap();
    remove_stale(d).unwrap();
    let mut left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["app.js", "index.html", "index.html.gz"]);
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
