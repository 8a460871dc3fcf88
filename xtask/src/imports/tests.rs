use super::graph::{circles, Sources};
use super::scan::scan;

fn tree(files: &[(&str, &str)]) -> Sources {
    files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect()
}

/// Each circle's files.
fn found(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    circles(&tree(files), "lib.rs")
        .into_iter()
        .map(|c| c.files)
        .collect()
}

#[test]
fn a_circle_through_super_is_found_with_a_line_for_each_hop() {
    let sources = tree(&[
        ("lib.rs", "mod outer;\n"),
        ("outer.rs", "mod a;\nmod b;\n"),
        ("outer/a.rs", "//! A.\n\nuse super::b::Thing;\n"),
        ("outer/b.rs", "fn f() {\n    super::a::run();\n}\n"),
    ]);
    let found = circles(&sources, "lib.rs");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].files, ["outer/a.rs", "outer/b.rs"]);
    let hops: Vec<(&str, &str, usize)> = found[0]
        .hops
        .iter()
        .map(|h| (h.from.as_str(), h.to.as_str(), h.line))
        .collect();
    assert_eq!(
        hops,
        [
            ("outer/a.rs", "outer/b.rs", 3),
            ("outer/b.rs", "outer/a.rs", 2)
        ]
    );
}

#[test]
fn nested_use_groups_name_each_of_their_modules() {
    let files = [
        ("lib.rs", "mod a;\nmod c;\n"),
        ("a.rs", "pub mod b;\npub mod x;\n"),
        ("a/b.rs", "pub struct B;\n"),
        ("a/x.rs", "use crate::c::C;\n"),
        ("c.rs", "use crate::{a::{b::B, x}, Thing};\n"),
    ];
    assert_eq!(found(&files), [["a/x.rs", "c.rs"]]);
    // Without the `x` in the group, c reaches a/b only and nothing is a circle.
    let mut files = files;
    files[4].1 = "use crate::{a::{b::{self, B}}, Thing};\n";
    assert!(found(&files).is_empty());
}

#[test]
fn a_mod_rs_that_re_exports_its_children_is_no_circle_with_them() {
    let files = [
        ("lib.rs", "mod prs;\nmod other;\n"),
        (
            "prs/mod.rs",
            "mod list;\nmod merge;\n\npub use list::list;\npub(crate) use merge::*;\n\
             pub fn helper() {}\n",
        ),
        ("prs/list.rs", "use super::{helper, merge::Row};\n"),
        (
            "prs/merge.rs",
            "pub struct Row;\nfn f() { super::helper() }\n",
        ),
        ("other.rs", "use crate::prs::list;\n"),
    ];
    assert!(found(&files).is_empty());
    // The mod.rs's own code using a child does close a circle with it.
    let mut files = files;
    files[1].1 = "mod list;\nmod merge;\n\npub use list::list;\nuse merge::Row;\n";
    assert_eq!(found(&files), [["prs/merge.rs", "prs/mod.rs"]]);
}

#[test]
fn comments_strings_and_test_code_name_nothing() {
    let files = [
        (
            "lib.rs",
            "mod a;\nmod b;\n#[cfg(test)]\nmod test_support;\n",
        ),
        (
            "a.rs",
            "//! Unlike [`crate::b`], this \"crate::b\" is not used.\n\
             /// See crate::b::Thing.\n\
             /* crate::b /* nested */ crate::b */\n\
             const S: &str = \"crate::b::x\";\n\
             const R: &str = r#\"super::b\"#;\n\
             const C: char = '\"';\n\
             fn f<'a>(x: &'a str) -> &'a str { x }\n\
             #[cfg(test)]\n\
             mod tests {\n    use crate::b::B;\n}\n",
        ),
        (
            "b.rs",
            "use crate::a::f;\n#[cfg(test)]\nuse crate::test_support::x;\n",
        ),
        ("test_support.rs", "use crate::b::B;\n"),
    ];
    assert!(found(&files).is_empty());
}

#[test]
fn a_child_module_named_by_its_parent_is_an_edge_self_too() {
    let files = [
        ("lib.rs", "mod a;\n"),
        ("a.rs", "mod b;\nmod c;\nfn f() { b::g(); }\n"),
        (
            "a/b.rs",
            "use self::inner::x;\nmod inner { pub use super::super::c::x; }\n",
        ),
        ("a/c.rs", "use super::f;\n"),
    ];
    assert_eq!(found(&files), [["a.rs", "a/b.rs", "a/c.rs"]]);
}

#[test]
fn names_reached_through_the_crate_root_or_other_crates_are_not_edges() {
    let files = [
        ("lib.rs", "mod a;\nmod b;\npub use a::*;\npub use b::*;\n"),
        ("a.rs", "use crate::B;\nuse std::fmt;\n"),
        ("b.rs", "use crate::A;\nuse serde::a::Thing;\n"),
        ("main.rs", "use mylib::a::x;\n"),
    ];
    assert!(found(&files).is_empty());
}

#[test]
fn use_groups_are_read_to_their_leaves() {
    let scanned = scan(
        "use crate::{a::{self, b as c, d::*}, e};\nlet x = super::super::f::g();\n\
         pub(crate) use x::{\n    y,\n};\n",
    );
    let paths: Vec<String> = scanned
        .paths
        .iter()
        .map(|p| {
            let pub_use = if p.reexport { " (pub use)" } else { "" };
            format!("{}@{}{pub_use}", p.segments.join("::"), p.line)
        })
        .collect();
    assert_eq!(
        paths,
        [
            "crate::a@1",
            "crate::a::b@1",
            "crate::a::d@1",
            "crate::e@1",
            "super::super::f::g@2",
            "x::y@4 (pub use)",
        ]
    );
}

#[test]
fn a_lib_and_its_bin_are_separate_crates() {
    let files = [
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::B;\n"),
        ("b.rs", "pub struct B;\n"),
        // The bin's `crate::` is the bin: its `a` and `b` are its own files, not the lib's.
        ("main.rs", "mod cli;\nmod run;\n"),
        ("cli.rs", "use crate::run::go;\n"),
        ("run.rs", "use crate::cli::Args;\nuse mylib::a::x;\n"),
    ];
    assert!(circles(&tree(&files), "lib.rs").is_empty());
    let in_bin: Vec<Vec<String>> = circles(&tree(&files), "main.rs")
        .into_iter()
        .map(|c| c.files)
        .collect();
    assert_eq!(in_bin, [["cli.rs", "run.rs"]]);
}

#[test]
fn a_root_not_named_lib_or_main_declares_modules_beside_it() {
    // `bin/bench.rs` (or `tests/prs.rs`) is a crate root: its `mod x;` is `bin/x.rs`, not
    // `bin/bench/x.rs`, while a module `a.rs` below it keeps its children in `a/`.
    let files = [
        ("bin/bench.rs", "mod a;\nmod common;\n"),
        ("bin/a.rs", "mod deep;\nuse crate::common::c;\n"),
        ("bin/a/deep.rs", "pub fn d() {}\n"),
        ("bin/common/mod.rs", "use super::a::deep::d;\n"),
        ("bin/bench/a.rs", "this file is not part of the crate\n"),
    ];
    let in_bench: Vec<Vec<String>> = circles(&tree(&files), "bin/bench.rs")
        .into_iter()
        .map(|c| c.files)
        .collect();
    // common → a/deep only; a → common; no circle.
    assert!(in_bench.is_empty());
    let mut files = files;
    files[2].1 = "use super::super::common::c;\n";
    let in_bench: Vec<Vec<String>> = circles(&tree(&files), "bin/bench.rs")
        .into_iter()
        .map(|c| c.files)
        .collect();
    assert_eq!(in_bench, [["bin/a/deep.rs", "bin/common/mod.rs"]]);
}
