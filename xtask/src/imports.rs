//! `cargo xtask lint-imports`: circles among the files of a crate, from the paths each file
//! names (`crate::…`, `super::…`, `self::…`, its own child modules). A circle means no file
//! in it can be read, tested or moved without the others.

mod graph;
mod scan;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A crate to check: one target of a workspace package (its lib, a bin, a test).
struct Target {
    /// `buildd-server lib`, `buildd-server test prs`.
    label: String,
    /// The directory its module files are read from, relative to the workspace root.
    dir: PathBuf,
    /// Its root file, relative to `dir`.
    root: String,
}

pub fn lint() -> Result<(), String> {
    crate::step("lint-imports");
    let targets = targets()?;
    // Each target is checked on its own: a crate's modules can only form circles among
    // themselves. A lib and its bin read the same directory, so the files are read once.
    let mut read: BTreeMap<PathBuf, graph::Sources> = BTreeMap::new();
    let mut reported = BTreeSet::new();
    let mut found = 0;
    for target in &targets {
        if !read.contains_key(&target.dir) {
            let mut sources = graph::Sources::new();
            read_sources(&target.dir, "", &mut sources)?;
            read.insert(target.dir.clone(), sources);
        }
        let dir = target.dir.display();
        for circle in graph::circles(&read[&target.dir], &target.root) {
            // Test targets sharing a `mod common;` would report its circles once each.
            if !reported.insert((target.dir.clone(), circle.files.clone())) {
                continue;
            }
            found += 1;
            println!(
                "{dir} ({}): circle of {} files: {}",
                target.label,
                circle.files.len(),
                circle.files.join(", ")
            );
            for hop in &circle.hops {
                println!(
                    "    {} -> {}  ({dir}/{}:{})",
                    hop.from, hop.to, hop.from, hop.line
                );
            }
        }
    }
    if found == 0 {
        println!("no import circles in {} crates", targets.len());
        Ok(())
    } else {
        Err(format!("{found} import circle(s)"))
    }
}

/// Every target of every workspace package, as `cargo metadata` lists them.
fn targets() -> Result<Vec<Target>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(&cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| format!("could not start {cargo}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let root = Path::new(metadata["workspace_root"].as_str().unwrap_or_default());
    let mut out = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        for target in package["targets"].as_array().into_iter().flatten() {
            let src = Path::new(target["src_path"].as_str().unwrap_or_default());
            let (Some(dir), Some(file)) = (src.parent(), src.file_name()) else {
                continue;
            };
            let package = package["name"].as_str().unwrap_or_default();
            let label = match target["kind"][0].as_str().unwrap_or_default() {
                "lib" => format!("{package} lib"),
                kind => format!(
                    "{package} {kind} {}",
                    target["name"].as_str().unwrap_or_default()
                ),
            };
            out.push(Target {
                label,
                dir: dir.strip_prefix(root).unwrap_or(dir).to_path_buf(),
                root: file.to_string_lossy().into_owned(),
            });
        }
    }
    Ok(out)
}

/// Every `.rs` file under `dir`, keyed by its path below the starting dir.
fn read_sources(dir: &Path, prefix: &str, out: &mut graph::Sources) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let key = format!("{prefix}{name}");
        if path.is_dir() {
            read_sources(&path, &format!("{key}/"), out)?;
        } else if name.ends_with(".rs") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            out.insert(key, text);
        }
    }
    Ok(())
}
