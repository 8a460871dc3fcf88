//! Brotli and gzip copies of the built dashboard's files (`name.br`, `name.gz`), written once
//! at build time so the server answers compressed from its first request and never writes
//! into `dist` (which may then be read-only). Here rather than in the server: `cargo xtask
//! build` makes a complete `dist` without compiling the server, and the server carries no
//! encoder it would only use at start.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The kinds of file worth compressing (trunk's output, the chunks, the favicon).
const COMPRESSIBLE: [&str; 5] = ["wasm", "js", "css", "html", "svg"];

/// An encoder: a file's bytes in, its compressed copy out.
type Encoder = fn(&[u8]) -> io::Result<Vec<u8>>;

/// The encodings written, by file suffix.
const ENCODINGS: [(&str, Encoder); 2] = [("br", brotli), ("gz", gzip)];

/// What [`compress_dir`] did.
pub struct Compressed {
    pub written: usize,
    pub current: usize,
}

/// Writes the missing or outdated copies of every compressible file of `dist`, two at a
/// time; a copy at least as new as its file is kept. Copies whose file is gone and
/// half-written ones left by an interrupted run are removed.
pub fn compress_dir(dist: &Path) -> Result<Compressed, String> {
    let mut jobs = Vec::new();
    let mut current = 0;
    for entry in std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".partial") || is_orphan_copy(&path) {
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            continue;
        }
        let compressible = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| COMPRESSIBLE.contains(&e));
        if !compressible || !path.is_file() {
            continue;
        }
        for (i, (suffix, _)) in ENCODINGS.iter().enumerate() {
            if is_current(&path, &sibling(&path, suffix)) {
                current += 1;
            } else {
                jobs.push((path.clone(), i));
            }
        }
    }
    // The biggest first, so the two workers finish together.
    jobs.sort_by_key(|(path, _)| std::cmp::Reverse(std::fs::metadata(path).map_or(0, |m| m.len())));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((path, encoding)) = jobs.get(i) else {
                    break;
                };
                if let Err(e) = write_copy(path, ENCODINGS[*encoding]) {
                    let failure = format!("compressing {}: {e}", path.display());
                    failures.lock().expect("no panics hold it").push(failure);
                }
            });
        }
    });
    let failures = failures.into_inner().expect("no panics hold it");
    if let Some(first) = failures.into_iter().next() {
        return Err(first);
    }
    Ok(Compressed {
        written: jobs.len(),
        current,
    })
}

/// A `.br` or `.gz` whose file is not beside it.
fn is_orphan_copy(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    name.strip_suffix(".br")
        .or_else(|| name.strip_suffix(".gz"))
        .is_some_and(|original| !path.with_file_name(original).exists())
}

/// Whether `copy` exists and is at least as new as `file`.
pub fn is_current(file: &Path, copy: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified());
    match (modified(file), modified(copy)) {
        (Ok(file), Ok(copy)) => copy >= file,
        _ => false,
    }
}

fn write_copy(path: &Path, (suffix, compress): (&str, Encoder)) -> io::Result<()> {
    let bytes = compress(&std::fs::read(path)?)?;
    // Written aside and renamed: a server reading `dist` never sees half a file.
    let partial = sibling(path, &format!("{suffix}.partial"));
    let written = std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, sibling(path, suffix)));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// `path` with `.suffix` appended to its name.
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn modified(path: &Path) -> std::time::SystemTime {
        std::fs::metadata(path).unwrap().modified().unwrap()
    }

    fn set_modified(path: &Path, at: std::time::SystemTime) {
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }

    #[test]
    fn copies_are_written_once_and_again_only_for_a_newer_file() {
        let dir = std::env::temp_dir().join(format!("compress-dist-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let wasm: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.join("app_bg.wasm"), &wasm).unwrap();
        std::fs::write(dir.join("index.html"), "<!DOCTYPE html><p>page</p>").unwrap();
        std::fs::write(dir.join("split-files.json"), "[]").unwrap();
        std::fs::write(dir.join("gone.js.br"), "its file was removed").unwrap();
        std::fs::write(dir.join("index.html.gz.partial"), "half").unwrap();

        let first = compress_dir(&dir).unwrap();
        assert_eq!((first.written, first.current), (4, 0));
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "app_bg.wasm",
                "app_bg.wasm.br",
                "app_bg.wasm.gz",
                "index.html",
                "index.html.br",
                "index.html.gz",
                "split-files.json"
            ]
        );
        let mut unbrotli = Vec::new();
        let br = std::fs::read(dir.join("app_bg.wasm.br")).unwrap();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut unbrotli)
            .unwrap();
        assert_eq!(unbrotli, wasm);
        let mut gunzip = Vec::new();
        let gz = std::fs::read(dir.join("app_bg.wasm.gz")).unwrap();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut gunzip)
            .unwrap();
        assert_eq!(gunzip, wasm);

        let kept = modified(&dir.join("index.html.br"));
        let again = compress_dir(&dir).unwrap();
        assert_eq!((again.written, again.current), (0, 4));
        assert_eq!(modified(&dir.join("index.html.br")), kept);

        // A copy older than its file is written again.
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::write(dir.join("index.html"), "<!DOCTYPE html><p>new page</p>").unwrap();
        set_modified(&dir.join("index.html.br"), hour_ago);
        set_modified(&dir.join("index.html.gz"), hour_ago);
        let rebuilt = compress_dir(&dir).unwrap();
        assert_eq!((rebuilt.written, rebuilt.current), (2, 2));
        let mut page = Vec::new();
        let br = std::fs::read(dir.join("index.html.br")).unwrap();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut page)
            .unwrap();
        assert_eq!(page, b"<!DOCTYPE html><p>new page</p>");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
