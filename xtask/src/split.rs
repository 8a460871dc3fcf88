//! The split dashboard build. Trunk runs `wasm-bindgen`; the one first on its PATH is
//! `split-bindgen` (`xtask/split-bindgen`), which splits the wasm at the lazy pages and
//! leaves the chunks and their loader in the split dir. Once trunk is done, [`finish`] puts
//! them into `dist`: each chunk optimised by wasm-opt and named by the build's hash, the loader
//! pointed at trunk's hashed main JS, written short (`loader.rs`) and preloaded by
//! `index.html`. The previous build's chunks stay beside the new ones, so a tab opened before
//! a deploy can still open a page (the router cannot recover from a chunk that fails to load).

use crate::tools::Env;
use crate::{compress, run, step};
use std::path::{Path, PathBuf};

/// What a split build's dist holds of its own: the loader and the chunk names.
const FILES: &str = "split-files.json";

/// The dashboard's features in a split build (`src/pages/lazy_routes.rs`).
pub const FEATURES: &str = "lazy";

/// How the chunks are optimised, as index.html has trunk optimise the main module:
/// measured smaller after brotli than `-Oz`. Rust's wasm stack sits below its data, so
/// the lowest kilobyte is used only by a stack already overflowing. The sections naming the
/// tools and the wasm features used are for tools, not browsers.
const WASM_OPT: [&str; 5] = [
    "-Os",
    "--converge",
    "--low-memory-unused",
    "--strip-producers",
    "--strip-target-features",
];

/// Features wasm-opt must be told of: the chunks have no target-features section.
const WASM_FEATURES: [&str; 6] = [
    "--enable-bulk-memory",
    "--enable-nontrapping-float-to-int",
    "--enable-sign-ext",
    "--enable-mutable-globals",
    "--enable-multivalue",
    "--enable-reference-types",
];

/// The wrapper installed and the environment trunk needs to run it.
pub struct Split {
    wrapper_dir: PathBuf,
    real_wasm_bindgen: PathBuf,
    out: PathBuf,
}

/// Builds `split-bindgen` and installs it as `wasm-bindgen` in a directory of its own.
pub fn prepare(env: &Env) -> Result<Split, String> {
    run(
        env,
        "cargo",
        &["build", "--profile", "server", "-p", "split-bindgen"],
    )?;
    let built = env.target_dir().join("server/split-bindgen");
    let wrapper_dir = env.cache().join("tools/split");
    std::fs::create_dir_all(&wrapper_dir).map_err(|e| e.to_string())?;
    let wrapper = wrapper_dir.join("wasm-bindgen");
    // Copied, then renamed into place: never a half-written program on PATH.
    let partial = wrapper_dir.join("wasm-bindgen.partial");
    std::fs::copy(&built, &partial).map_err(|e| format!("{}: {e}", built.display()))?;
    std::fs::rename(&partial, &wrapper).map_err(|e| e.to_string())?;
    Ok(Split {
        wrapper_dir,
        real_wasm_bindgen: env.bin().join("wasm-bindgen"),
        out: env.target_dir().join("wasm-split"),
    })
}

impl Split {
    /// `trunk build --release` of the split dashboard.
    pub fn trunk_build(&self, env: &Env) -> Result<(), String> {
        let args = ["build", "--release", "--features", FEATURES];
        step(&format!(
            "trunk {} (pages split into chunks)",
            args.join(" ")
        ));
        let mut cmd = env.command("trunk");
        let path = cmd
            .get_envs()
            .find(|(k, _)| *k == "PATH")
            .and_then(|(_, v)| v.map(|v| v.to_os_string()))
            .unwrap_or_default();
        let mut dirs = vec![self.wrapper_dir.clone()];
        dirs.extend(std::env::split_paths(&path));
        cmd.args(args)
            .env(
                "PATH",
                std::env::join_paths(dirs).map_err(|e| e.to_string())?,
            )
            .env("BUILDD_SPLIT_DIR", &self.out)
            .env("BUILDD_REAL_WASM_BINDGEN", &self.real_wasm_bindgen)
            // The splitter needs the linker's relocations. This variable replaces the
            // rustflags of .cargo/config.toml, so their cfg is repeated.
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", rustflags());
        let status = cmd
            .status()
            .map_err(|e| format!("could not start trunk: {e}"))?;
        status
            .success()
            .then_some(())
            .ok_or_else(|| format!("`trunk {}` failed ({status})", args.join(" ")))
    }
}

/// The wasm rustflags of the split build: the splitter needs the linker's relocations, and
/// the crates' sources are named from their own directory (`leptos-0.8.23/src/…`), not
/// from this machine's cargo home, in the panic locations the app carries.
fn rustflags() -> String {
    let mut flags = String::from("--cfg erase_components -C link-args=--emit-relocs");
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let registries = cargo_home.map(|h| h.join("registry/src"));
    if let Some(Ok(dirs)) = registries.map(std::fs::read_dir) {
        let mut dirs: Vec<PathBuf> = dirs.filter_map(|d| Some(d.ok()?.path())).collect();
        dirs.sort();
        for dir in dirs {
            // A path with a space cannot go through this variable; it keeps its full name.
            if let Some(dir) = dir.to_str().filter(|d| !d.contains(' ')) {
                flags.push_str(&format!(" --remap-path-prefix={dir}/="));
            }
        }
    }
    flags
}

/// The files of the build in `dist` now, with their contents, before trunk replaces it:
/// each followed by its current compressed copies, so they are not compressed again.
pub fn previous(dist: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(list) = std::fs::read_to_string(dist.join(FILES)) else {
        return Vec::new();
    };
    let names: Vec<String> = serde_json::from_str(&list).unwrap_or_default();
    let mut kept = Vec::new();
    for name in names {
        if name.contains('/') || name.starts_with('.') {
            continue;
        }
        let file = dist.join(&name);
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        kept.push((name.clone(), bytes));
        for suffix in ["br", "gz"] {
            let copy = compress::sibling(&file, suffix);
            if compress::is_current(&file, &copy) {
                if let Ok(bytes) = std::fs::read(&copy) {
                    kept.push((format!("{name}.{suffix}"), bytes));
                }
            }
        }
    }
    kept
}

/// Puts the split build's chunks and loader into `dist`, beside the previous build's.
pub fn finish(
    env: &Env,
    split: &Split,
    dist: &Path,
    previous: Vec<(String, Vec<u8>)>,
) -> Result<(), String> {
    let manifest = std::fs::read_to_string(split.out.join("split.json"))
        .map_err(|e| format!("the splitter left no split.json: {e}"))?;
    let manifest: serde_json::Value = serde_json::from_str(&manifest).map_err(|e| e.to_string())?;
    let field = |name: &str| {
        manifest[name]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("split.json has no {name}"))
    };
    let (loader_name, main_module) = (field("loader")?, field("mainModule")?);
    let chunks: Vec<String> = manifest["chunks"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| Some(c.as_str()?.to_string()))
                .collect()
        })
        .unwrap_or_default();

    let index = std::fs::read_to_string(dist.join("index.html")).map_err(|e| e.to_string())?;
    let main_stem = main_module.trim_start_matches("./").trim_end_matches(".js");
    let main_js = hashed_name(&index, main_stem)
        .ok_or_else(|| format!("index.html names no {main_stem}-<hash>.js"))?;

    // The loader's name carries a hash of the wasm the chunks are cut from.
    let build = loader_name
        .strip_prefix("split-loader-")
        .and_then(|n| n.strip_suffix(".js"))
        .ok_or_else(|| format!("a loader named {loader_name}, not split-loader-<hash>.js"))?;
    let text = std::fs::read_to_string(split.out.join(&loader_name))
        .map_err(|e| e.to_string())?
        .replace(
            &format!("from \"{main_module}\""),
            &format!("from \"./{main_js}\""),
        );
    let loader = crate::loader::parse(&text)?;
    let groups = group_chunks(&split.out, &loader)?;
    let tag = files_tag(build, &groups);
    let pieces = pieces(&split.out, &chunks, &loader, &groups);
    step(&format!(
        "wasm-merge, then wasm-opt {}: {} chunks in {} files, and {} pages",
        WASM_OPT.join(" "),
        loader.chunks().len(),
        groups.len(),
        pieces.len() - groups.len()
    ));
    let named = make_pieces(env, &split.out.join("merged"), dist, &pieces, &tag)?;
    let loader = loader.write(&tag, &groups)?;
    write(&dist.join(&loader_name), loader.as_bytes())?;
    // The main module's files as trunk left them, whose hashes index.html holds.
    let main_wasm = format!("{}_bg.wasm", main_js.trim_end_matches(".js"));
    let read = |name: &str| std::fs::read(dist.join(name)).map_err(|e| format!("{name}: {e}"));
    let trunk_hashes = [integrity(&read(&main_js)?), integrity(&read(&main_wasm)?)];
    let js = String::from_utf8(read(&main_js)?).map_err(|e| e.to_string())?;
    let (wasm, js) = crate::unused_classes::drop_unused(&read(&main_wasm)?, &js)?;
    write(&dist.join(&main_js), js.as_bytes())?;
    // Optimised again, as trunk did: the code only the dropped exports reached goes.
    write(&dist.join(&main_wasm), &wasm)?;
    wasm_opt(env, &dist.join(&main_wasm), &dist.join(&main_wasm))?;
    // trunk minifies CSS and HTML but leaves JS as wasm-bindgen wrote it.
    for js in [&main_js, &loader_name] {
        minify(env, &dist.join(js))?;
    }
    let js = String::from_utf8(read(&main_js)?).map_err(|e| e.to_string())?;
    let (wasm, js) = crate::wasm_names::shorten(&read(&main_wasm)?, &js)?;
    write(&dist.join(&main_wasm), &wasm)?;
    write(&dist.join(&main_js), js.as_bytes())?;
    let mut index = index;
    for (old, new) in trunk_hashes
        .iter()
        .zip([integrity(js.as_bytes()), integrity(&wasm)])
    {
        if !index.contains(old.as_str()) {
            return Err(format!("index.html holds no {old}"));
        }
        index = index.replace(old.as_str(), &new);
    }
    // The main JS imports the loader: fetched beside it rather than after it.
    let preload = format!(
        "<link rel=\"modulepreload\" href=\"/{loader_name}\" crossorigin=\"anonymous\"></head>"
    );
    write(
        &dist.join("index.html"),
        index.replacen("</head>", &preload, 1).as_bytes(),
    )?;

    let mut files = named;
    files.push(loader_name);
    record(dist, &files, previous)
}

/// The subresource integrity of `bytes`, as trunk writes it.
fn integrity(bytes: &[u8]) -> String {
    use base64::Engine;
    use sha2::Digest;
    let digest = sha2::Sha384::digest(bytes);
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// Minifies the ES module `file` in place with terser (names inside it shortened; its
/// exports and the properties wasm-bindgen looks up keep their names).
fn minify(env: &Env, file: &Path) -> Result<(), String> {
    let out = file.with_extension("min.partial");
    let status = env
        .command("terser")
        .arg(file)
        .args(["--module", "--compress", "--mangle", "-o"])
        .arg(&out)
        .status()
        .map_err(|e| format!("could not start terser: {e}"))?;
    if !status.success() {
        return Err(format!("terser failed on {}", file.display()));
    }
    std::fs::rename(&out, file).map_err(|e| e.to_string())
}

/// Lists this build's `files` in `dist` and puts the previous build's back beside them, each
/// file before its copies (so they stay as new as it); the build before that is gone, as
/// trunk emptied `dist`.
fn record(dist: &Path, files: &[String], previous: Vec<(String, Vec<u8>)>) -> Result<(), String> {
    for (name, bytes) in previous {
        // A file of this build's (the same name, as the loader may keep) has its copies
        // made afresh from what this build wrote, not restored from the previous one.
        let base = name
            .strip_suffix(".br")
            .or_else(|| name.strip_suffix(".gz"))
            .unwrap_or(&name);
        if files.iter().any(|f| f == base) {
            continue;
        }
        if !dist.join(&name).exists() {
            write(&dist.join(&name), &bytes)?;
        }
    }
    let list = serde_json::to_string(files).map_err(|e| e.to_string())?;
    write(&dist.join(FILES), list.as_bytes())
}

/// The tag naming every file of the build: the loader's hash and the grouping's (a tab
/// holding the loader of a build of the same wasm grouped otherwise must not fetch a file of
/// the new one). One tag repeated costs the loader 1.7 KB less, after brotli, than a hash
/// each; the price is that a file unchanged by a deploy is fetched again once.
fn files_tag(build: &str, groups: &[Vec<u32>]) -> String {
    let mut hash = crate::fresh::Fnv::new();
    hash.field(build.as_bytes());
    for group in groups {
        let numbers: Vec<u8> = group.iter().flat_map(|c| c.to_le_bytes()).collect();
        hash.field(&numbers);
    }
    hash.hex()
}

/// What goes into `dist`: each of the splitter's `files` in `out` that is not a chunk (the
/// pages' modules) as it is, then each group of chunks as `chunk_<n>`.
fn pieces(
    out: &Path,
    files: &[String],
    loader: &crate::loader::Loader,
    groups: &[Vec<u32>],
) -> Vec<(Vec<PathBuf>, String)> {
    let mut pieces = Vec::new();
    for file in files {
        let stem = file.strip_suffix(".wasm").unwrap_or(file);
        let is_chunk = stem
            .strip_prefix("chunk_")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| loader.chunks().contains(&n));
        if !is_chunk {
            pieces.push((vec![out.join(file)], stem.to_string()));
        }
    }
    for (n, group) in groups.iter().enumerate() {
        let from = group
            .iter()
            .map(|c| out.join(format!("chunk_{c}.wasm")))
            .collect();
        pieces.push((from, format!("chunk_{n}")));
    }
    pieces
}

/// The splitter's chunks in groups (`chunk_groups.rs`), by their sizes in `out`.
fn group_chunks(out: &Path, loader: &crate::loader::Loader) -> Result<Vec<Vec<u32>>, String> {
    let mut sizes = Vec::new();
    for &chunk in loader.chunks() {
        let file = out.join(format!("chunk_{chunk}.wasm"));
        let size = std::fs::metadata(&file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .len();
        sizes.push((chunk, size));
    }
    let pages: Vec<Vec<u32>> = loader.pages.iter().map(|(_, c)| c.clone()).collect();
    crate::chunk_groups::group(&sizes, &pages, crate::chunk_groups::EXTRA_BYTES)
}

/// Makes each piece (its chunks and the stem of its name) into `dist` as
/// `<stem>-<tag>.wasm`, merged (in `work`) when it has more than one chunk, then
/// optimised; two at a time.
fn make_pieces(
    env: &Env,
    work: &Path,
    dist: &Path,
    pieces: &[(Vec<PathBuf>, String)],
    tag: &str,
) -> Result<Vec<String>, String> {
    if work.exists() {
        std::fs::remove_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<String, String>>>> =
        pieces.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((from, stem)) = pieces.get(i) else {
                    break;
                };
                let result = make_piece(
                    env,
                    &work.join(stem),
                    from,
                    dist,
                    &format!("{stem}-{tag}.wasm"),
                );
                *results[i].lock().expect("no panics hold it") = Some(result);
            });
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .expect("no panics hold it")
                .expect("every piece ran")
        })
        .collect()
}

fn make_piece(
    env: &Env,
    work: &Path,
    from: &[PathBuf],
    dist: &Path,
    name: &str,
) -> Result<String, String> {
    let input = match from {
        [one] => one.clone(),
        many => {
            let merged = work.join("merged.wasm");
            crate::chunk_merge::merge(env, &WASM_FEATURES, many, work, &merged)?;
            merged
        }
    };
    wasm_opt(env, &input, &dist.join(name))?;
    Ok(name.to_string())
}

/// `input` optimised by wasm-opt into `output` (which may be `input`), renamed into place.
fn wasm_opt(env: &Env, input: &Path, output: &Path) -> Result<(), String> {
    let partial = output.with_extension("opt.partial");
    let status = env
        .command("wasm-opt")
        .args(WASM_OPT)
        .args(WASM_FEATURES)
        .arg(input)
        .arg("-o")
        .arg(&partial)
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("could not start wasm-opt: {e}"))?;
    if !status.success() {
        return Err(format!("wasm-opt failed on {}", input.display()));
    }
    std::fs::rename(&partial, output).map_err(|e| e.to_string())
}

/// `<stem>-<hash>.js` as `index.html` names it.
fn hashed_name(index: &str, stem: &str) -> Option<String> {
    let start = index.find(&format!("/{stem}-"))? + 1;
    let end = start + index[start..].find(".js")? + 3;
    Some(index[start..end].to_string())
}

/// Written beside, then renamed into place.
fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes).map_err(|e| format!("{}: {e}", partial.display()))?;
    std::fs::rename(&partial, path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(dist: &Path, files: &[&str]) {
        // As trunk leaves it: the old dist gone, the new files in place.
        let _ = std::fs::remove_dir_all(dist);
        std::fs::create_dir_all(dist).unwrap();
        for name in files {
            std::fs::write(dist.join(name), name.as_bytes()).unwrap();
        }
    }

    #[test]
    fn a_build_keeps_the_previous_builds_chunks_and_drops_older_ones() {
        let dist = std::env::temp_dir().join(format!("split-dist-{}", std::process::id()));
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let first = ["chunk_1-aa.wasm", "split-loader-01.js"];
        let second = ["chunk_1-bb.wasm", "split-loader-02.js"];
        let third = ["chunk_1-cc.wasm", "split-loader-03.js"];

        assert!(previous(&dist).is_empty(), "no build yet");
        build(&dist, &first);
        record(&dist, &names(&first), Vec::new()).unwrap();

        std::fs::write(dist.join("chunk_1-aa.wasm.br"), "compressed").unwrap();
        let kept = previous(&dist);
        build(&dist, &second);
        record(&dist, &names(&second), kept).unwrap();
        for name in first.iter().chain(&second) {
            assert!(dist.join(name).exists(), "{name} after the second build");
        }
        assert!(
            compress::is_current(
                &dist.join("chunk_1-aa.wasm"),
                &dist.join("chunk_1-aa.wasm.br")
            ),
            "the previous build's copy comes back with its file"
        );

        let kept = previous(&dist);
        assert_eq!(
            kept.len(),
            2,
            "only the second build's own files are listed"
        );
        build(&dist, &third);
        record(&dist, &names(&third), kept).unwrap();
        for name in second.iter().chain(&third) {
            assert!(dist.join(name).exists(), "{name} after the third build");
        }
        for name in first {
            assert!(!dist.join(name).exists(), "{name} is two builds old");
        }
        assert_eq!(
            std::fs::read(dist.join("chunk_1-bb.wasm")).unwrap(),
            b"chunk_1-bb.wasm",
            "kept as it was"
        );
        std::fs::remove_dir_all(&dist).unwrap();
    }

    /// A file this build wrote under the name the previous build used (a loader minified
    /// after its name was given) gets new copies: the previous build's are not put back.
    #[test]
    fn a_file_written_again_under_its_name_is_not_given_the_old_copies() {
        let dist = std::env::temp_dir().join(format!("split-same-{}", std::process::id()));
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let first = ["chunk_1-aa.wasm", "split-loader-01.js"];
        build(&dist, &first);
        record(&dist, &names(&first), Vec::new()).unwrap();
        std::fs::write(dist.join("split-loader-01.js.br"), "old copy").unwrap();
        std::fs::write(dist.join("chunk_1-aa.wasm.br"), "old chunk copy").unwrap();
        let kept = previous(&dist);
        let second = ["chunk_1-bb.wasm", "split-loader-01.js"];
        build(&dist, &second);
        record(&dist, &names(&second), kept).unwrap();
        assert!(!dist.join("split-loader-01.js.br").exists());
        assert!(dist.join("chunk_1-aa.wasm.br").exists());
        std::fs::remove_dir_all(&dist).unwrap();
    }

    #[test]
    fn integrity_is_the_base64_sha384_browsers_check() {
        assert_eq!(
            integrity(b""),
            "sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb"
        );
    }

    #[test]
    fn the_main_js_is_found_by_its_stem_in_index_html() {
        let index = r#"<link rel="modulepreload" href="/buildd-mission-control-5b59.js"><script type="module">import init from '/buildd-mission-control-5b59.js';</script>"#;
        assert_eq!(
            hashed_name(index, "buildd-mission-control").as_deref(),
            Some("buildd-mission-control-5b59.js")
        );
        assert_eq!(hashed_name(index, "other"), None);
    }

    #[test]
    fn the_files_tag_follows_the_build_and_the_grouping() {
        let tag = files_tag("abf25c7f47cb0ca9", &[vec![12, 13], vec![14]]);
        assert_eq!(tag.len(), 16);
        assert_eq!(
            tag,
            files_tag("abf25c7f47cb0ca9", &[vec![12, 13], vec![14]])
        );
        assert_ne!(
            tag,
            files_tag("abf25c7f47cb0ca9", &[vec![12], vec![13, 14]])
        );
        assert_ne!(
            tag,
            files_tag("0000000000000000", &[vec![12, 13], vec![14]])
        );
    }
}
