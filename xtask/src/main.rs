//! `cargo xtask serve | build | test | screenshots | bench [agents] | lint-imports`: installs what is missing, builds, runs.

mod chunk_groups;
mod chunk_merge;
mod compress;
mod fresh;
mod imports;
mod loader;
mod split;
mod tools;
mod unused_classes;
mod wasm_names;

use std::path::PathBuf;
use std::process::{exit, Command};

const USAGE: &str = "\
usage: cargo xtask <command>

  serve [--listen ADDR] [--db PATH] [--no-worker]
                                      build the dashboard and start the Buildd API server with
                                      demo data (default 127.0.0.1:8080, ./buildd.db) and the
                                      scripted worker, which claims and completes tasks
  serve --upstream URL [--listen ADDR]
                                      build the dashboard and serve it with every /api/* call
                                      forwarded to the Buildd at URL (no local database)
  build                               the release dashboard into dist/, its later pages split
                                      into chunks, with brotli and gzip copies of its files;
                                      reused as it is when nothing it is built from changed
  test                                format, import and lint checks, then every test, browser
                                      tests included
  screenshots                         the README's pictures of the command center and a
                                      mission page, light and dark, taken again by the
                                      screenshot set into docs/screenshots/
  bench [pictures|server|mission-page|first-load]
                                      dashboard size, API latency, render time and the
                                      pictures at 10,000 points; or one part of them
  bench agents [--agents 50,200,...] [--seconds N] [--lockstep] [--rounds N]
                                      claims against a deep queue, then simulated runners
                                      (claim, a report a second, complete) and dashboard tabs
                                      against the release server, stepped up: rates,
                                      latencies, 503s and the knee (--lockstep: the agents
                                      start together rather than spread over a cycle;
                                      --rounds: the steps N times, each on a fresh server,
                                      then each step's medians)
  lint-imports                        circles among the files of each crate of the workspace
                                      (every lib, bin and test target of every package: files
                                      that reach each other through their `use` paths)
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    std::env::set_current_dir(&root).expect("workspace root");
    let env = tools::Env::new(&root);
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&env, &args[1..]),
        Some("build") => tools::ensure_web(&env).and_then(|()| build_dashboard(&env)),
        Some("test") => test(&env),
        Some("screenshots") => screenshots(&env),
        Some("bench") if args.get(1).map(String::as_str) == Some("agents") => {
            bench_agents(&env, &args[2..])
        }
        Some("bench") => bench(&env, args.get(1).map(String::as_str)),
        Some("lint-imports") => imports::lint(),
        _ => {
            eprint!("{USAGE}");
            exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("\nxtask: {e}");
        exit(1);
    }
}

/// The clone this command was started in. Read at run time (`cargo run` sets it): a binary
/// cached in a shared target dir may have been compiled in another clone.
fn workspace_root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("xtask"));
    manifest_dir
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Runs a command with the tools on PATH; an error names the command.
pub fn run(env: &tools::Env, program: &str, args: &[&str]) -> Result<(), String> {
    step(&format!("{program} {}", args.join(" ")));
    let status = env
        .command(program)
        .args(args)
        .status()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

pub fn step(what: &str) {
    eprintln!("\n==> {what}");
}

/// The release dashboard in `dist`, its later pages split into chunks (see `split.rs`) and
/// its files compressed; the build already there when its inputs are unchanged.
fn build_dashboard(env: &tools::Env) -> Result<(), String> {
    let dist = std::path::Path::new("dist");
    let inputs = fresh::inputs(env, split::FEATURES)?;
    let reused = inputs.built_in(dist);
    if reused {
        step(&format!(
            "dashboard unchanged since the last build (inputs {}): reusing dist/",
            inputs.hash
        ));
    } else {
        inputs.forget()?;
        let split = split::prepare(env)?;
        let previous = split::previous(dist);
        split.trunk_build(env)?;
        split::finish(env, &split, dist, previous)?;
    }
    let compressed = compress::compress_dir(dist)?;
    if compressed.written > 0 || !reused {
        step(&format!(
            "brotli and gzip copies in dist/: {} written, {} current",
            compressed.written, compressed.current
        ));
    }
    if !reused {
        inputs.record(dist)?;
    }
    Ok(())
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn serve(env: &tools::Env, args: &[String]) -> Result<(), String> {
    tools::ensure_web(env)?;
    build_dashboard(env)?;
    run(
        env,
        "cargo",
        &["build", "--profile", "server", "-p", "buildd-server"],
    )?;
    let listen = flag(args, "--listen")
        .map(str::to_string)
        .or_else(|| std::env::var("BUILDD_LISTEN").ok())
        .unwrap_or_else(|| "127.0.0.1:8080".into());
    let db = flag(args, "--db")
        .map(str::to_string)
        .or_else(|| std::env::var("BUILDD_DB").ok())
        .unwrap_or_else(|| "buildd.db".into());
    let server = env.target_dir().join("server/buildd-server");
    let upstream = flag(args, "--upstream")
        .map(str::to_string)
        .or_else(|| std::env::var("BUILDD_UPSTREAM").ok());
    let mut serve_args = vec!["serve", "--listen", &listen, "--dist", "dist"];
    match &upstream {
        // The server prints the address to open: the Connect page, where the key is pasted.
        Some(url) => serve_args.extend(["--upstream", url.as_str()]),
        None => {
            serve_args.extend(["--demo", "--db", &db]);
            if !args.iter().any(|a| a == "--no-worker") {
                serve_args.push("--worker");
            }
        }
    }
    step(&format!("buildd-server {}", serve_args.join(" ")));
    let status = Command::new(&server)
        .args(&serve_args)
        .status()
        .map_err(|e| format!("could not start {}: {e}", server.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("buildd-server stopped ({status})"))
    }
}

fn test(env: &tools::Env) -> Result<(), String> {
    tools::ensure_web(env)?;
    tools::ensure_browser()?;
    tools::ensure_postgres()?;
    tools::ensure_nginx()?;
    tools::ensure_axe(env)?;
    tools::ensure_leptosfmt(env)?;
    run(env, "cargo", &["fmt", "--all", "--", "--check"])?;
    // The view! macros, which rustfmt leaves alone (leptosfmt.toml).
    run(env, "leptosfmt", &["--check", "--quiet", "src"])?;
    imports::lint()?;
    run(
        env,
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    // The dashboard as `trunk serve` builds it, and split into lazy pages as shipped.
    for features in ["", "lazy"] {
        run(
            env,
            "cargo",
            &[
                "clippy",
                "-p",
                "buildd-mission-control",
                "--target",
                "wasm32-unknown-unknown",
                "--features",
                features,
                "--",
                "-D",
                "warnings",
            ],
        )?;
    }
    build_dashboard(env)?;
    run_tests(env)
}

/// `cargo test --workspace`, then the server's HTTP-level tests again on Postgres, echoed
/// as they run, closed by one line that totals every test binary's result.
fn run_tests(env: &tools::Env) -> Result<(), String> {
    let dist = std::env::current_dir()
        .map_err(|e| e.to_string())?
        .join("dist");
    step("cargo test --workspace");
    let mut args = vec!["test", "--workspace"];
    let (mut passed, mut failed, mut ok) = cargo_test(env, &dist, &args, &[])?;
    // Every test binary of the server but `load`, whose tests fill SQLite's writer queue
    // and wait on it, on a Postgres cluster the tests start (crates/testkit/src/postgres.rs).
    step("the server's HTTP-level tests on Postgres");
    let tests = server_test_binaries()?;
    args = vec!["test", "--package", "buildd-server"];
    for test in tests.iter().filter(|t| *t != "load") {
        args.extend(["--test", test]);
    }
    let (p, f, o) = cargo_test(env, &dist, &args, &[("BUILDD_TEST_DB", "postgres")])?;
    (passed, failed, ok) = (passed + p, failed + f, ok && o);
    println!("\n{passed} passed, {failed} failed");
    if ok && failed == 0 {
        Ok(())
    } else {
        Err("the tests failed".to_string())
    }
}

/// The server's integration test binaries, by name (crates/server/tests/*.rs).
fn server_test_binaries() -> Result<Vec<String>, String> {
    let dir = std::path::Path::new("crates/server/tests");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some(name.strip_suffix(".rs")?.to_string())
        })
        .collect();
    names.sort();
    Ok(names)
}

/// `cargo` with `args` (a `cargo test`), echoed as it runs: its tests passed and failed,
/// and whether it exited well.
fn cargo_test(
    env: &tools::Env,
    dist: &std::path::Path,
    args: &[&str],
    vars: &[(&str, &str)],
) -> Result<(u64, u64, bool), String> {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut command = env.command("cargo");
    command
        .args(args)
        // Whole builds: what the suite runs never depends on incremental state left in a
        // target dir that many trees have shared.
        .env("CARGO_INCREMENTAL", "0")
        .env("BUILDD_DIST", dist)
        .env("BUILDD_AXE", env.axe_script())
        .stdout(Stdio::piped());
    for (name, value) in vars {
        command.env(name, value);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    let (mut passed, mut failed) = (0u64, 0u64);
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            let count = |word: &str| {
                rest.split(';')
                    .find_map(|part| {
                        let number = part.trim().strip_suffix(word)?.split_whitespace().last()?;
                        number.parse::<u64>().ok()
                    })
                    .unwrap_or(0)
            };
            passed += count("passed");
            failed += count("failed");
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    Ok((passed, failed, status.success()))
}

/// The screenshot set, with the README's pictures written into `docs/screenshots/`.
fn screenshots(env: &tools::Env) -> Result<(), String> {
    tools::ensure_web(env)?;
    tools::ensure_browser()?;
    tools::ensure_axe(env)?;
    build_dashboard(env)?;
    let root = std::env::current_dir().map_err(|e| e.to_string())?;
    let status = env
        .command("cargo")
        .args([
            "test",
            "-p",
            "buildd-mission-control",
            "--test",
            "browser",
            "screenshots",
        ])
        .env("BUILDD_DIST", root.join("dist"))
        .env("BUILDD_AXE", env.axe_script())
        .env("BUILDD_README_SHOTS", root.join("docs/screenshots"))
        .status()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the screenshot set failed ({status})"))
    }
}

/// The server and the bench in the server profile; the bench starts the server beside it.
fn bench_agents(env: &tools::Env, args: &[String]) -> Result<(), String> {
    run(
        env,
        "cargo",
        &[
            "build",
            "--profile",
            "server",
            "-p",
            "buildd-server",
            "--bin",
            "buildd-server",
        ],
    )?;
    let mut command = bench_binary("agents");
    command.extend(args.iter().map(String::as_str));
    run(env, "cargo", &command)
}

/// `cargo run` of the bench binary in the server profile, for its `part` (what follows it
/// on the command line is the part's).
fn bench_binary(part: &str) -> Vec<&str> {
    vec![
        "run",
        "--profile",
        "server",
        "-p",
        "buildd-testkit",
        "--bin",
        "bench",
        "--",
        part,
    ]
}

fn bench(env: &tools::Env, part: Option<&str>) -> Result<(), String> {
    tools::ensure_web(env)?;
    tools::ensure_browser()?;
    build_dashboard(env)?;
    run(
        env,
        "cargo",
        &["build", "--profile", "server", "-p", "buildd-server"],
    )?;
    let mut command = bench_binary("dist");
    if let Some(part) = part {
        command.push(part);
        return run(env, "cargo", &command);
    }
    // Everything is built now, so this is the serve of a clone where nothing changed.
    let warm = warm_serve(env)?;
    run(env, "cargo", &command)?;
    println!(
        "\nwarm serve: {warm:.1} s until the link   budget: <= 15 s ({})",
        if warm <= 15.0 { "within" } else { "OVER" }
    );
    Ok(())
}

/// Seconds from starting `cargo xtask serve --no-worker` to the link it prints, on a free
/// loopback port with a new database; the server is stopped once the link is there.
fn warm_serve(env: &tools::Env) -> Result<f64, String> {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    step("cargo xtask serve --no-worker, timed until it prints the link");
    let dir = env.target_dir().join("tmp/warm-serve");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    let db = dir.join("buildd.db");
    let started = std::time::Instant::now();
    let mut child = env
        .command("cargo")
        .args(["xtask", "serve", "--no-worker", "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("--db")
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // A group of its own: cargo, xtask and the server are stopped together.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let linked = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.contains("/#key="))
        .map(|_| started.elapsed().as_secs_f64());
    let _ = Command::new("kill")
        .args(["-TERM", "--", &format!("-{}", child.id())])
        .status();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    linked.ok_or_else(|| {
        "`cargo xtask serve --no-worker` printed no link (run it to see why)".to_string()
    })
}
