//! A group of chunks (`chunk_groups.rs`) merged into one module by binaryen's wasm-merge.
//! Each chunk imports the main module's memory, function table and stack pointer from
//! `__wasm_split`; merged as they are, each would bring its own memory. So the chunks are
//! first made to import them from a module named `__wasm_merge` that imports them from
//! `__wasm_split` and exports them again: wasm-merge joins every chunk's imports to its
//! exports, and the merged module imports each thing once, as a chunk does. A chunk holds
//! code at fixed places in the table and data at fixed addresses, so merged chunks work as
//! they did apart; each chunk is in one group, so none is instantiated twice.

use crate::tools::Env;
use crate::wasm_names::{
    parse_imports, push_import, push_leb, push_name, rewrite_imports, section,
};
use std::path::{Path, PathBuf};

const SPLIT: &str = "__wasm_split";
const MERGE: &str = "__wasm_merge";

/// Merges `chunks` into `out`, with `work` (a directory of this group's own) for the steps
/// and `features` the wasm features binaryen must be told of.
pub fn merge(
    env: &Env,
    features: &[&str],
    chunks: &[PathBuf],
    work: &Path,
    out: &Path,
) -> Result<(), String> {
    std::fs::create_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    let mut imported: Vec<(String, Vec<u8>)> = Vec::new();
    let mut inputs = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let wasm = std::fs::read(chunk).map_err(|e| format!("{}: {e}", chunk.display()))?;
        let renamed = rewrite_imports(&wasm, |import| {
            if import.module != SPLIT {
                return Err(format!(
                    "{} imports {} from {}, not {SPLIT}",
                    chunk.display(),
                    import.field,
                    import.module
                ));
            }
            match imported.iter().find(|(field, _)| field == import.field) {
                Some((_, seen)) if seen != import.description => {
                    return Err(format!(
                        "chunks import {} as different things",
                        import.field
                    ))
                }
                Some(_) => {}
                None => imported.push((import.field.to_string(), import.description.to_vec())),
            }
            Ok((MERGE.to_string(), import.field.to_string()))
        })?;
        let input = work.join(format!("chunk{i}.wasm"));
        std::fs::write(&input, renamed).map_err(|e| e.to_string())?;
        inputs.push(input);
    }
    let hub = work.join("hub.wasm");
    std::fs::write(&hub, hub_module(&imported)).map_err(|e| e.to_string())?;

    let partial = out.with_extension("merge.partial");
    let mut cmd = env.command("wasm-merge");
    cmd.args(features).arg(&hub).arg(MERGE);
    for (i, input) in inputs.iter().enumerate() {
        cmd.arg(input).arg(format!("chunk{i}"));
    }
    // Its warnings (a name section's subsections it does not know) are noise; its errors
    // are shown when it fails.
    let done = cmd
        .arg("-o")
        .arg(&partial)
        .output()
        .map_err(|e| format!("could not start wasm-merge: {e}"))?;
    if !done.status.success() {
        return Err(format!(
            "wasm-merge failed in {}: {}",
            work.display(),
            String::from_utf8_lossy(&done.stderr)
        ));
    }
    let merged = std::fs::read(&partial).map_err(|e| e.to_string())?;
    check_imports(&merged, &imported)?;
    std::fs::rename(&partial, out).map_err(|e| e.to_string())
}

/// A module importing each of `imported` (field and description) from `__wasm_split` and
/// exporting it under its name.
fn hub_module(imported: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut imports = Vec::new();
    let mut exports = Vec::new();
    push_leb(&mut imports, imported.len() as u64);
    push_leb(&mut exports, imported.len() as u64);
    // Each kind (function, table, memory, global) counts its own indices.
    let mut counts = [0u64; 5];
    for (field, description) in imported {
        push_import(&mut imports, SPLIT, field, description);
        let kind = description[0];
        push_name(&mut exports, field);
        exports.push(kind);
        let count = &mut counts[usize::from(kind).min(4)];
        push_leb(&mut exports, *count);
        *count += 1;
    }
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    for (id, body) in [(2u8, imports), (7, exports)] {
        wasm.push(id);
        push_leb(&mut wasm, body.len() as u64);
        wasm.extend(body);
    }
    wasm
}

/// The merged module must import just what its chunks imported, from `__wasm_split`: an
/// import left on `__wasm_merge` would fail in the browser, at the page's first open.
fn check_imports(merged: &[u8], imported: &[(String, Vec<u8>)]) -> Result<(), String> {
    let body = section(merged, 2)?.unwrap_or(&[0]);
    let mut fields: Vec<&str> = Vec::new();
    for import in parse_imports(body)? {
        if import.module != SPLIT {
            return Err(format!(
                "the merged chunks import {} from {}",
                import.field, import.module
            ));
        }
        fields.push(import.field);
    }
    let mut expected: Vec<&str> = imported.iter().map(|(field, _)| field.as_str()).collect();
    fields.sort_unstable();
    expected.sort_unstable();
    if fields != expected {
        return Err(format!(
            "the merged chunks import {fields:?}, not {expected:?}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hub_imports_and_exports_each_thing_once() {
        let memory = vec![2, 0, 21];
        let table = vec![1, 0x70, 0, 0xc0, 0x45];
        let global = vec![3, 0x7f, 1];
        let imported = vec![
            ("memory".to_string(), memory.clone()),
            ("__indirect_function_table".to_string(), table),
            ("__wasm_split_shared0".to_string(), global),
        ];
        let hub = hub_module(&imported);
        let imports = parse_imports(section(&hub, 2).unwrap().unwrap()).unwrap();
        assert_eq!(imports.len(), 3);
        assert!(imports.iter().all(|i| i.module == SPLIT));
        assert_eq!(imports[0].description, memory.as_slice());
        // Exports: a name, its kind and its index within the kind, each first of its kind.
        let mut expected = vec![3u8];
        for (field, kind) in [
            ("memory", 2u8),
            ("__indirect_function_table", 1),
            ("__wasm_split_shared0", 3),
        ] {
            push_name(&mut expected, field);
            expected.extend([kind, 0]);
        }
        assert_eq!(section(&hub, 7).unwrap().unwrap(), expected.as_slice());
        check_imports(&hub, &imported).unwrap();
    }

    #[test]
    fn a_merge_left_importing_from_the_hub_is_refused() {
        let imported = vec![("memory".to_string(), vec![2, 0, 1])];
        let mut body = Vec::new();
        push_leb(&mut body, 1);
        push_import(&mut body, MERGE, "memory", &[2, 0, 1]);
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.push(2);
        push_leb(&mut wasm, body.len() as u64);
        wasm.extend(body);
        assert!(check_imports(&wasm, &imported).unwrap_err().contains(MERGE));
        let none = b"\0asm\x01\0\0\0".to_vec();
        assert!(check_imports(&none, &imported).unwrap_err().contains("not"));
    }
}
