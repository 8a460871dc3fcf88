//! `cargo xtask lint-imports`: circles among the files of a crate, from the paths each file
//! names (`crate::…`, `super::…`, `self::…`, its own child modules). A circle means no file
//! in it can be read, tested or moved without the others.

mod graph;
mod scan;
#[cfg(test)]
mod tests;

use std::path::Path;

/// Each checked separately: a crate's modules can only form circles among themselves.
const CRATES: [&str; 2] = ["crates/core/src", "crates/server/src"];

pub fn lint() -> Result<(), String> {
    crate::step("lint-imports");
    let mut found = 0;
    for src in CRATES {
        let mut sources = graph::Sources::new();
        read_sources(Path::new(src), "", &mut sources)?;
        for circle in graph::circles(&sources) {
            found += 1;
            println!(
                "{src}: circle of {} files: {}",
                circle.files.len(),
                circle.files.join(", ")
            );
            for hop in &circle.hops {
                println!(
                    "    {} -> {}  ({src}/{}:{})",
                    hop.from, hop.to, hop.from, hop.line
                );
            }
        }
    }
    if found == 0 {
        println!("no import circles");
        Ok(())
    } else {
        Err(format!("{found} import circle(s)"))
    }
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
