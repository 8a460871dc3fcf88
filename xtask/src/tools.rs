//! The tools the build needs, installed once under `$HOME/.cache/buildd-mc/` (outside the
//! clone, so later runs and CI reuse them) and skipped when the right version is there.

use crate::{run, step};
use std::path::{Path, PathBuf};
use std::process::Command;

const TRUNK: &str = "0.21.14";
const WASM_BINDGEN: &str = "0.2.130";
const BINARYEN: &str = "132";
/// Minifies the JS trunk leaves (wasm-bindgen's glue and the chunk loader).
const TERSER: &str = "5.51.4";
/// The release Lighthouse 12 audits with.
const AXE_CORE: &str = "4.10.3";
/// The latest leptosfmt; it builds with rustc 1.95.
const LEPTOSFMT: &str = "0.1.33";

pub struct Env {
    cache: PathBuf,
    target: PathBuf,
}

/// Target dirs kept for other clones before the least recently used one is removed.
const KEEP_TARGETS: usize = 3;

impl Env {
    /// `root` is the clone being built.
    pub fn new(root: &Path) -> Self {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| "/tmp".into());
        let cache = home.join(".cache/buildd-mc");
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| clone_target_dir(&cache, root));
        Self { cache, target }
    }

    pub fn target_dir(&self) -> &Path {
        &self.target
    }

    pub fn cache(&self) -> &Path {
        &self.cache
    }

    pub fn bin(&self) -> PathBuf {
        self.cache.join("tools/bin")
    }

    fn npm_prefix(&self) -> PathBuf {
        self.cache.join("tools/npm")
    }

    /// axe-core's script, which the browser tests run in each main page.
    pub fn axe_script(&self) -> PathBuf {
        self.npm_prefix().join("node_modules/axe-core/axe.min.js")
    }

    /// `npm install` of `package` into the tools' npm prefix.
    fn npm_install(&self, package: &str) -> Result<(), String> {
        let prefix = self.npm_prefix();
        std::fs::create_dir_all(&prefix).map_err(|e| e.to_string())?;
        run(
            self,
            "npm",
            &[
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                prefix.to_str().ok_or("the cache path is not UTF-8")?,
                package,
            ],
        )
    }

    /// A command with the installed tools first on PATH and the shared target dir.
    pub fn command(&self, program: &str) -> Command {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![self.bin(), self.npm_prefix().join("node_modules/.bin")];
        dirs.extend(std::env::split_paths(&path));
        let mut cmd = Command::new(program);
        cmd.env("PATH", std::env::join_paths(dirs).expect("PATH"))
            .env("CARGO_TARGET_DIR", &self.target);
        cmd
    }

    fn version_of(&self, program: &str) -> Option<String> {
        let out = self.command(program).arg("--version").output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}

/// The wasm target, trunk, wasm-bindgen, a working wasm-opt (and wasm-merge) and terser.
pub fn ensure_web(env: &Env) -> Result<(), String> {
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("rustup: {e}"))?;
    if !String::from_utf8_lossy(&targets.stdout).contains("wasm32-unknown-unknown") {
        run(env, "rustup", &["target", "add", "wasm32-unknown-unknown"])?;
    }
    let root = env.cache.join("tools");
    let root = root.to_str().ok_or("the cache path is not UTF-8")?;
    if env.version_of("trunk").as_deref() != Some(&format!("trunk {TRUNK}")) {
        step(&format!(
            "installing trunk {TRUNK}: about 10 minutes on 2 cores, once (cargo shows its progress)"
        ));
        run(
            env,
            "cargo",
            &[
                "install",
                "--locked",
                "trunk",
                "--version",
                TRUNK,
                "--root",
                root,
            ],
        )?;
    }
    if env.version_of("wasm-bindgen").as_deref() != Some(&format!("wasm-bindgen {WASM_BINDGEN}")) {
        step(&format!(
            "installing wasm-bindgen-cli {WASM_BINDGEN}: about 3 minutes, once"
        ));
        // Not --locked: its lockfile pins a crate version the registry no longer serves.
        run(
            env,
            "cargo",
            &[
                "install",
                "wasm-bindgen-cli",
                "--version",
                WASM_BINDGEN,
                "--root",
                root,
            ],
        )?;
    }
    // Debian's binaryen (108) silently breaks the app; binaryen from npm works. Its
    // wasm-merge, from the same package, merges the split build's chunks.
    let wasm_opt = env.version_of("wasm-opt").unwrap_or_default();
    if !wasm_opt.contains(&format!("version {BINARYEN}")) {
        step(&format!(
            "installing binaryen {BINARYEN} (wasm-opt, wasm-merge) from npm"
        ));
        env.npm_install(&format!("binaryen@{BINARYEN}"))?;
    }
    if env.version_of("terser").as_deref() != Some(&format!("terser {TERSER}")) {
        step(&format!(
            "installing terser {TERSER} (JS minifier) from npm"
        ));
        env.npm_install(&format!("terser@{TERSER}"))?;
    }
    Ok(())
}

/// axe-core, the accessibility rules the browser tests check every main page against.
pub fn ensure_axe(env: &Env) -> Result<(), String> {
    let package = env.npm_prefix().join("node_modules/axe-core/package.json");
    let installed = std::fs::read_to_string(package)
        .ok()
        .and_then(|p| serde_json::from_str::<serde_json::Value>(&p).ok())
        .is_some_and(|p| p["version"] == AXE_CORE);
    if installed && env.axe_script().exists() {
        return Ok(());
    }
    step(&format!("installing axe-core {AXE_CORE} from npm"));
    env.npm_install(&format!("axe-core@{AXE_CORE}"))
}

/// leptosfmt, which formats the dashboard's `view!` macros (`cargo xtask test` checks them).
pub fn ensure_leptosfmt(env: &Env) -> Result<(), String> {
    if env.version_of("leptosfmt").as_deref() == Some(&format!("leptosfmt {LEPTOSFMT}")) {
        return Ok(());
    }
    step(&format!(
        "installing leptosfmt {LEPTOSFMT}: about 3 minutes, once"
    ));
    let root = env.cache.join("tools");
    let root = root.to_str().ok_or("the cache path is not UTF-8")?;
    run(
        env,
        "cargo",
        &[
            "install",
            "--locked",
            "leptosfmt",
            "--version",
            LEPTOSFMT,
            "--root",
            root,
        ],
    )
}

/// Debian's Chromium and ChromeDriver, for the browser tests.
pub fn ensure_browser() -> Result<(), String> {
    if Path::new("/usr/bin/chromium").exists() && Path::new("/usr/bin/chromedriver").exists() {
        return Ok(());
    }
    apt_install(&["chromium", "chromium-driver"])
}

/// Debian's Postgres (15 on bookworm), for the server's tests on Postgres: the binaries
/// only; the tests make clusters of their own.
pub fn ensure_postgres() -> Result<(), String> {
    let installed = std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|versions| {
        versions
            .filter_map(Result::ok)
            .any(|v| v.path().join("bin/postgres").exists())
    });
    if installed || std::env::var_os("BUILDD_PG_BIN").is_some() {
        return Ok(());
    }
    apt_install(&["postgresql"])
}

/// Debian's nginx, for the test that runs the README's two-replica example behind it; the
/// test starts it itself, in the foreground (the package's own service is left alone).
pub fn ensure_nginx() -> Result<(), String> {
    if Path::new("/usr/sbin/nginx").exists() {
        return Ok(());
    }
    apt_install(&["nginx-light"])
}

/// Installs Debian `packages` with apt-get (through sudo when not root).
fn apt_install(packages: &[&str]) -> Result<(), String> {
    step(&format!(
        "installing {} with apt-get",
        packages.join(" and ")
    ));
    let sudo = !is_root();
    let apt = |args: &[&str]| -> Result<(), String> {
        let mut cmd = if sudo {
            Command::new("sudo")
        } else {
            Command::new("apt-get")
        };
        if sudo {
            cmd.arg("apt-get");
        }
        let status = cmd
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map_err(|e| format!("apt-get: {e}"))?;
        status
            .success()
            .then_some(())
            .ok_or_else(|| format!("`apt-get {}` failed", args.join(" ")))
    };
    apt(&["update"])?;
    let mut install = vec!["install", "-y"];
    install.extend_from_slice(packages);
    apt(&install)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// One target dir per clone: Cargo decides freshness from the source paths recorded at
/// build time, so two clones sharing a dir can pick up each other's stale builds.
fn clone_target_dir(cache: &Path, root: &Path) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    root.hash(&mut hasher);
    let name = root.file_name().and_then(|n| n.to_str()).unwrap_or("clone");
    let targets = cache.join("targets");
    let dir = targets.join(format!("{name}-{:016x}", hasher.finish()));
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(".last-used"), b"");
    prune_targets(&targets);
    dir
}

/// Removes the least recently used target dirs beyond [`KEEP_TARGETS`].
fn prune_targets(targets: &Path) {
    let Ok(entries) = std::fs::read_dir(targets) else {
        return;
    };
    let mut dirs: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let used = std::fs::metadata(e.path().join(".last-used")).and_then(|m| m.modified());
            Some((used.ok()?, e.path()))
        })
        .collect();
    dirs.sort_by_key(|(used, _)| std::cmp::Reverse(*used));
    for (_, old) in dirs.into_iter().skip(KEEP_TARGETS) {
        let _ = std::fs::remove_dir_all(old);
    }
}
