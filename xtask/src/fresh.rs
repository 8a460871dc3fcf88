//! Whether `dist` already holds the build of the dashboard's current inputs, so a warm
//! `cargo xtask serve` skips trunk and the chunks' optimisation (minutes on 2 cores). The
//! key is a hash of everything the build reads (the dashboard's and buildd-core's sources,
//! the manifests and lockfile, the page, styles and public files, the splitter and the
//! recipe in `split.rs` and the files it uses), the tools' versions and the features; it is
//! stored in the target dir with a hash of the files the build left in `dist`, so a `dist`
//! changed since (another `trunk build`, a file removed) is built again.

use crate::tools::Env;
use std::path::{Path, PathBuf};

/// The directories whose every file is an input, and the single files.
const INPUT_DIRS: [&str; 5] = [
    "src",
    "crates/core/src",
    "style",
    "public",
    "xtask/split-bindgen/src",
];
const INPUT_FILES: [&str; 15] = [
    "Cargo.toml",
    "Cargo.lock",
    "index.html",
    "Trunk.toml",
    "crates/core/Cargo.toml",
    "xtask/split-bindgen/Cargo.toml",
    ".cargo/config.toml",
    "rust-toolchain.toml",
    "rust-toolchain",
    "xtask/src/split.rs",
    "xtask/src/wasm_names.rs",
    "xtask/src/loader.rs",
    "xtask/src/chunk_groups.rs",
    "xtask/src/chunk_merge.rs",
    "xtask/src/unused_classes.rs",
];

/// Programs whose `--version` is part of the key.
const TOOLS: [&str; 5] = ["rustc", "trunk", "wasm-bindgen", "wasm-opt", "terser"];

/// The key of a dashboard build, and where it is recorded.
pub struct Inputs {
    pub hash: String,
    stamp: PathBuf,
}

/// The current inputs of the build with `features`.
pub fn inputs(env: &Env, features: &str) -> Result<Inputs, String> {
    let mut hasher = Fnv::new();
    hasher.field(b"features");
    hasher.field(features.as_bytes());
    for tool in TOOLS {
        let out = env
            .command(tool)
            .arg("--version")
            .output()
            .map_err(|e| format!("{tool} --version: {e}"))?;
        hasher.field(tool.as_bytes());
        hasher.field(&out.stdout);
    }
    let mut files: Vec<PathBuf> = INPUT_FILES.iter().map(PathBuf::from).collect();
    for dir in INPUT_DIRS {
        files_under(Path::new(dir), &mut files)?;
    }
    files.sort();
    for file in files {
        // A file that is absent (an optional toolchain file) is hashed as absent.
        let bytes = std::fs::read(&file).ok();
        hasher.field(file.to_string_lossy().as_bytes());
        hasher.field(bytes.as_deref().unwrap_or(b"\0absent"));
    }
    Ok(Inputs {
        hash: hasher.hex(),
        stamp: env.target_dir().join("dashboard-build.json"),
    })
}

impl Inputs {
    /// Whether `dist` holds the build of these inputs, as the last build left it.
    pub fn built_in(&self, dist: &Path) -> bool {
        let Ok(stamp) = std::fs::read_to_string(&self.stamp) else {
            return false;
        };
        let Ok(stamp) = serde_json::from_str::<serde_json::Value>(&stamp) else {
            return false;
        };
        stamp["inputs"] == self.hash.as_str()
            && stamp["dist"] == dist_name(dist).as_str()
            && dist_hash(dist).is_ok_and(|h| stamp["distFiles"] == h.as_str())
    }

    /// Forgets the last build, before `dist` is replaced: a build that fails half way is
    /// never taken for a finished one.
    pub fn forget(&self) -> Result<(), String> {
        match std::fs::remove_file(&self.stamp) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("{}: {e}", self.stamp.display()))
            }
            _ => Ok(()),
        }
    }

    /// Records that `dist` now holds the build of these inputs.
    pub fn record(&self, dist: &Path) -> Result<(), String> {
        let stamp = serde_json::json!({
            "inputs": self.hash,
            "dist": dist_name(dist),
            "distFiles": dist_hash(dist)?,
        });
        std::fs::write(&self.stamp, stamp.to_string())
            .map_err(|e| format!("{}: {e}", self.stamp.display()))
    }
}

fn dist_name(dist: &Path) -> String {
    dist.canonicalize()
        .unwrap_or_else(|_| dist.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

/// A hash of the names and contents of the files the build put in `dist`; the compressed
/// copies are left out, being made again whenever missing or older than their file.
fn dist_hash(dist: &Path) -> Result<String, String> {
    let mut files = Vec::new();
    files_under(dist, &mut files)?;
    files.retain(|f| {
        let name = f.to_string_lossy();
        !(name.ends_with(".br") || name.ends_with(".gz") || name.ends_with(".partial"))
    });
    files.sort();
    let mut hasher = Fnv::new();
    for file in files {
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        hasher.field(file.to_string_lossy().as_bytes());
        hasher.field(&bytes);
    }
    Ok(hasher.hex())
}

/// Every file under `dir`, hidden ones (editors' swap files) left out; none for a `dir`
/// that does not exist.
fn files_under(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// 64-bit FNV-1a over length-prefixed fields, so moving bytes between a name and a content
/// changes the hash.
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    /// The hash so far, as 16 hex digits.
    pub(crate) fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }

    pub(crate) fn field(&mut self, bytes: &[u8]) {
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dist_hash_follows_names_and_contents_but_not_compressed_copies() {
        let dir = std::env::temp_dir().join(format!("fresh-dist-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "page").unwrap();
        std::fs::write(dir.join("app.js"), "app").unwrap();
        let built = dist_hash(&dir).unwrap();
        std::fs::write(dir.join("app.js.br"), "copy").unwrap();
        assert_eq!(
            dist_hash(&dir).unwrap(),
            built,
            "copies are not the build's"
        );
        std::fs::write(dir.join("app.js"), "changed").unwrap();
        assert_ne!(dist_hash(&dir).unwrap(), built, "a changed file");
        std::fs::write(dir.join("app.js"), "app").unwrap();
        assert_eq!(dist_hash(&dir).unwrap(), built);
        std::fs::remove_file(dir.join("app.js")).unwrap();
        assert_ne!(dist_hash(&dir).unwrap(), built, "a removed file");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fields_are_delimited() {
        let hash = |fields: &[&str]| {
            let mut h = Fnv::new();
            for f in fields {
                h.field(f.as_bytes());
            }
            h.0
        };
        assert_ne!(hash(&["ab", "c"]), hash(&["a", "bc"]));
        assert_eq!(hash(&["ab", "c"]), hash(&["ab", "c"]));
    }
}
