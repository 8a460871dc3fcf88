//! Installed by `cargo xtask` as `wasm-bindgen`, first on trunk's PATH. Trunk asks it for
//! its version and then runs it on the app's wasm; with `BUILDD_SPLIT_DIR` set, it first
//! splits that wasm at the `#[lazy]` points (`wasm_split_cli_support`, the library
//! cargo-leptos uses), writes the chunks, their loader and `split.json` there, and runs the
//! real wasm-bindgen on the remaining main module. `cargo xtask` finishes the chunks after
//! trunk is done (see `xtask/src/split.rs`). Anything else goes to the real wasm-bindgen
//! unchanged.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let real = match real_wasm_bindgen() {
        Ok(real) => real,
        Err(e) => return fail(&e),
    };
    let input = args.iter().position(|a| {
        a.to_str()
            .is_some_and(|a| !a.starts_with('-') && a.ends_with(".wasm"))
    });
    if let (Some(split_dir), Some(input)) = (std::env::var_os("BUILDD_SPLIT_DIR"), input) {
        let out_name = option(&args, "--out-name").unwrap_or_else(|| "main".into());
        match split(Path::new(&args[input]), Path::new(&split_dir), &out_name) {
            Ok(main) => {
                args[input] = main.into_os_string();
                // The chunks reach the main module's functions by their linker names.
                args.push("--keep-lld-exports".into());
                args.push("--no-demangle".into());
            }
            Err(e) => return fail(&e),
        }
    }
    match Command::new(&real).args(&args).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => fail(&format!("could not start {}: {e}", real.display())),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("split-bindgen: {message}");
    ExitCode::FAILURE
}

/// The value of `--name=value` or `--name value`.
fn option(args: &[OsString], name: &str) -> Option<String> {
    let mut args = args.iter().filter_map(|a| a.to_str());
    while let Some(arg) = args.next() {
        if let Some(value) = arg.strip_prefix(name) {
            match value.strip_prefix('=') {
                Some(value) => return Some(value.to_string()),
                None if value.is_empty() => return args.next().map(str::to_string),
                None => {}
            }
        }
    }
    None
}

/// `BUILDD_REAL_WASM_BINDGEN`, or the next `wasm-bindgen` on PATH that is not this one.
fn real_wasm_bindgen() -> Result<PathBuf, String> {
    if let Some(real) = std::env::var_os("BUILDD_REAL_WASM_BINDGEN") {
        return Ok(real.into());
    }
    let me = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| e.to_string())?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("wasm-bindgen"))
        .find(|candidate| {
            candidate
                .canonicalize()
                .is_ok_and(|c| c != me && c.is_file())
        })
        .ok_or_else(|| "no other wasm-bindgen on PATH".to_string())
}

/// Splits `input` into `dir`; returns the main module for wasm-bindgen.
fn split(input: &Path, dir: &Path, out_name: &str) -> Result<PathBuf, String> {
    let wasm = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    // The main JS imports the loader by this name and is integrity-checked and cached by
    // its hash, so the name changes with the build.
    let loader = format!("split-loader-{:016x}.js", fnv1a(&wasm));
    let link_name = format!("./{loader}");
    let main_module = format!("./{out_name}.js");
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let main = dir.join("main.wasm");
    let mut options = wasm_split_cli_support::Options::new(&wasm);
    options.output_dir = dir;
    options.main_out_path = &main;
    options.link_name = &link_name;
    options.main_module = &main_module;
    let split = wasm_split_cli_support::transform(options).map_err(|e| format!("{e:#}"))?;
    let chunks: Vec<String> = split
        .split_modules
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
        .collect();
    let manifest = serde_json::json!({
        "loader": loader,
        "mainModule": main_module,
        "chunks": chunks,
        "prefetch": split.prefetch_map,
    });
    std::fs::write(dir.join("split.json"), manifest.to_string()).map_err(|e| e.to_string())?;
    Ok(main)
}

/// A stable 64-bit hash (FNV-1a): the same wasm always gives the same loader name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
