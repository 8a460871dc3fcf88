//! The built dashboard, served at every path outside `/api` (deep links such as
//! `/missions/{id}` load the app), and compressed once next to its files (`name.br`,
//! `name.gz`): a browser that accepts brotli downloads under a third of the wasm's bytes.
//! Copies older than their file (or without one) are removed before the server answers;
//! new ones are written in the background, and until they exist a file is served as it is.

use axum::http::{header, HeaderValue};
use axum::Router;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// `router` with the dashboard in `dist` answering every path it does not route.
pub fn serve(router: Router, dist: &Path) -> Router {
    precompress_in_background(dist);
    // Trunk's file names do not change with their content: always revalidate.
    let index = ServeFile::new(dist.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let files = ServeDir::new(dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index);
    router.fallback_service(
        tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(
                header::CACHE_CONTROL,
                HeaderValue::from_static("no-cache"),
            ))
            // The same path answers brotli, gzip or plain bytes.
            .layer(SetResponseHeaderLayer::appending(
                header::VARY,
                HeaderValue::from_static("accept-encoding"),
            ))
            .service(files),
    )
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
