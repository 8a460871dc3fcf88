//! The files of one crate as a graph, an edge A → B when A names a path into B, and its
//! circles.

use super::scan::{scan, PathRef, Scan};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Each file's text, by its path under the crate root's directory with `/` separators
/// (`prs/mod.rs`).
pub type Sources = BTreeMap<String, String>;

/// Files that reach each other through their references, and a closed walk through all of
/// them, each hop with the line of its `from` file that names its `to` file.
#[derive(Debug)]
pub struct Circle {
    pub files: Vec<String>,
    pub hops: Vec<Hop>,
}

#[derive(Debug)]
pub struct Hop {
    pub from: String,
    pub to: String,
    pub line: usize,
}

struct Module {
    file: String,
    /// Its path from the crate root, `[]` for the root.
    path: Vec<String>,
}

/// The circles of the crate whose root file is `root` (`lib.rs`, `main.rs`, `bin/bench.rs`).
pub fn circles(sources: &Sources, root: &str) -> Vec<Circle> {
    let scans: BTreeMap<&str, Scan> = sources
        .iter()
        .map(|(file, text)| (file.as_str(), scan(text)))
        .collect();
    let modules = module_tree(sources, &scans, root);
    let edges = edges(&modules, &scans);
    let mut circles: Vec<Circle> = components(&edges)
        .into_iter()
        .filter(|members| members.len() > 1)
        .map(|members| {
            let mut files: Vec<String> = members.iter().map(|&m| modules[m].file.clone()).collect();
            files.sort();
            let hops = walk(&edges, &members, &modules)
                .into_iter()
                .map(|(from, to)| Hop {
                    from: modules[from].file.clone(),
                    to: modules[to].file.clone(),
                    line: edges[from][&to],
                })
                .collect();
            Circle { files, hops }
        })
        .collect();
    circles.sort_by(|a, b| a.files.cmp(&b.files));
    circles
}

/// The modules reached from the crate root through its `mod name;` items, test-only ones
/// left out; a file the root does not reach is not part of the crate.
fn module_tree(sources: &Sources, scans: &BTreeMap<&str, Scan>, root: &str) -> Vec<Module> {
    let mut modules: Vec<Module> = Vec::new();
    let mut placed = BTreeSet::new();
    if !sources.contains_key(root) {
        return modules;
    }
    let mut queue = VecDeque::from([(root.to_string(), Vec::new())]);
    while let Some((file, path)) = queue.pop_front() {
        if !placed.insert(file.clone()) {
            continue;
        }
        for decl in scans[file.as_str()].mods.iter().filter(|d| d.file) {
            let dir = children_dir(&file, file == root, &decl.within);
            let child = [
                format!("{dir}{}.rs", decl.name),
                format!("{dir}{}/mod.rs", decl.name),
            ]
            .into_iter()
            .find(|candidate| sources.contains_key(candidate));
            if let Some(child) = child {
                let mut child_path = path.clone();
                child_path.extend(decl.within.iter().cloned());
                child_path.push(decl.name.clone());
                queue.push_back((child, child_path));
            }
        }
        modules.push(Module { file, path });
    }
    modules
}

/// Where the files of the modules `file` declares inside its inline modules `within` live:
/// `a/` for `a.rs` and `a/mod.rs`; the crate root's own directory for the root, whatever
/// its name (`bin/bench.rs` declares `bin/x.rs`).
fn children_dir(file: &str, is_root: bool, within: &[String]) -> String {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    let mut out = if is_root || name == "mod.rs" {
        dir.to_string()
    } else {
        file.strip_suffix(".rs").unwrap_or(file).to_string()
    };
    for part in within {
        out = format!("{out}/{part}");
    }
    if out.is_empty() {
        out
    } else {
        format!("{}/", out.trim_start_matches('/'))
    }
}

/// `edges[a][b]`: the first line of module `a` naming module `b`. Left out: names that
/// resolve only to the crate root, which declares every module (any such edge would close a
/// circle) and which others use for its re-exports; and a module's `pub use` of its own
/// submodules, which passes their items on without its own code depending on them, so a
/// facade `mod.rs` and children using its helpers through `super::` are no circle.
fn edges(modules: &[Module], scans: &BTreeMap<&str, Scan>) -> Vec<BTreeMap<usize, usize>> {
    let by_path: BTreeMap<&[String], usize> = modules
        .iter()
        .enumerate()
        .map(|(id, m)| (m.path.as_slice(), id))
        .collect();
    let mut edges = vec![BTreeMap::new(); modules.len()];
    for (id, module) in modules.iter().enumerate() {
        let scan = &scans[module.file.as_str()];
        for path in &scan.paths {
            let Some(full) = absolute(&module.path, path, scan) else {
                continue;
            };
            let target = (0..=full.len())
                .rev()
                .find_map(|k| by_path.get(&full[..k]).copied());
            let counts = |t: usize| {
                let below = &modules[t].path;
                let facade = path.reexport
                    && below.len() > module.path.len()
                    && below.starts_with(&module.path);
                t != id && !below.is_empty() && !facade
            };
            if let Some(target) = target.filter(|&t| counts(t)) {
                let line = edges[id].entry(target).or_insert(path.line);
                *line = (*line).min(path.line);
            }
        }
    }
    edges
}

/// The path from the crate root that `path`, written in `module`, names; `None` for paths
/// outside the crate (`std::…`, `Self::…`, another crate).
fn absolute(module: &[String], path: &PathRef, scan: &Scan) -> Option<Vec<String>> {
    let mut here: Vec<String> = module.iter().chain(&path.within).cloned().collect();
    let segments = &path.segments;
    let rest = match segments.first()?.as_str() {
        "crate" => {
            here.clear();
            &segments[1..]
        }
        "self" => &segments[1..],
        "super" => {
            let ups = segments.iter().take_while(|s| *s == "super").count();
            here.truncate(here.len().checked_sub(ups)?);
            &segments[ups..]
        }
        name if scan
            .mods
            .iter()
            .any(|d| d.within == path.within && d.name == name) =>
        {
            &segments[..]
        }
        _ => return None,
    };
    here.extend(rest.iter().cloned());
    Some(here)
}

/// Strongly connected components (Tarjan).
fn components(edges: &[BTreeMap<usize, usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [BTreeMap<usize, usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges[v].keys() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let n = edges.len();
    let mut state = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if state.index[v].is_none() {
            visit(&mut state, v);
        }
    }
    state.out
}

/// A closed walk through every member, from the first file by name: shortest hops to the
/// nearest member not yet seen, then back.
fn walk(
    edges: &[BTreeMap<usize, usize>],
    members: &[usize],
    modules: &[Module],
) -> Vec<(usize, usize)> {
    let members: BTreeSet<usize> = members.iter().copied().collect();
    let start = *members
        .iter()
        .min_by_key(|&&m| &modules[m].file)
        .expect("a circle has members");
    let mut seen = BTreeSet::from([start]);
    let (mut at, mut hops) = (start, Vec::new());
    loop {
        let done = seen.len() == members.len();
        let path = shortest(edges, &members, at, |m| {
            if done {
                m == start
            } else {
                !seen.contains(&m)
            }
        });
        for pair in path.windows(2) {
            hops.push((pair[0], pair[1]));
            seen.insert(pair[1]);
        }
        at = *path.last().expect("a path has its start");
        if done || path.len() < 2 {
            return hops;
        }
    }
}

/// The shortest path inside `members` from `from` to a node that is `wanted`.
fn shortest(
    edges: &[BTreeMap<usize, usize>],
    members: &BTreeSet<usize>,
    from: usize,
    wanted: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut came_from = BTreeMap::from([(from, from)]);
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for &w in edges[v].keys().filter(|w| members.contains(w)) {
            if wanted(w) {
                let mut path = vec![w, v];
                let mut at = v;
                while at != from {
                    at = came_from[&at];
                    path.push(at);
                }
                path.reverse();
                return path;
            }
            if came_from.contains_key(&w) {
                continue;
            }
            came_from.insert(w, v);
            queue.push_back(w);
        }
    }
    vec![from]
}
