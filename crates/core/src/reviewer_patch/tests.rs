use super::*;

fn file(path: &str, status: &str, additions: i64, deletions: i64, patch: Option<&str>) -> PrFile {
    PrFile {
        path: path.to_owned(),
        status: status.into(),
        additions,
        deletions,
        patch: patch.map(str::to_owned),
    }
}

const FOO_PATH: &str = "apps/web/src/lib/foo.ts";

/// One line replaced and one added between two context lines: new lines 2 and 3.
fn foo() -> PrFile {
    let patch = "@@ -1,4 +1,5 @@ export function foo() {\n const a = 1;\n-const b = 2;\n\
                 +const b = 3;\n+const c = 4;\n return a;";
    file(FOO_PATH, "modified", 2, 1, Some(patch))
}

fn added_only() -> PrFile {
    let patch = "@@ -0,0 +1,2 @@\n+export const bar = 1;\n+export const baz = 2;";
    file("apps/web/src/lib/bar.ts", "added", 2, 0, Some(patch))
}

/// `lines` removed lines replaced by as many added ones, each about 80 characters.
fn big_file(path: &str, lines: usize) -> PrFile {
    let mut patch = vec![format!("@@ -1,{lines} +1,{lines} @@ fn")];
    let filler = "x".repeat(60);
    patch.extend((0..lines).map(|i| format!("-// removed line {i} {filler}")));
    patch.extend((0..lines).map(|i| format!("+// added line {i} {filler}")));
    let n = i64::try_from(lines).unwrap();
    file(path, "modified", n, n, Some(&patch.join("\n")))
}

fn deleted_routes(count: usize) -> Vec<PrFile> {
    (0..count)
        .map(|i| {
            let path = format!("apps/web/src/app/api/legacy/deep/nested/route-{i}.ts");
            file(&path, "removed", 0, 12, None)
        })
        .collect()
}

fn render(files: &[PrFile]) -> ReviewerPatch {
    render_reviewer_patch(files, DEFAULT_TOKEN_BUDGET)
}

/// The block of `path`, up to the next `## ` heading.
fn block<'a>(text: &'a str, path: &str) -> &'a str {
    let start = text
        .find(&format!("## File: '{path}'"))
        .unwrap_or_else(|| panic!("no block for {path} in:\n{text}"));
    let rest = &text[start..];
    let end = rest[1..].find("\n## ").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

fn citable(result: &ReviewerPatch, path: &str) -> Vec<u32> {
    result.citable_lines.get(path).cloned().unwrap_or_default()
}

// Hunk format.

#[test]
fn renders_the_file_header_symbol_hunk_header_and_both_hunks() {
    let expected = "## PR Diff (+2/-1 across 1 file)\n\n\
                    ## File: 'apps/web/src/lib/foo.ts'\n\n\
                    @@ ... @@ export function foo() {\n\
                    __new hunk__\n   const a = 1;\n2 +const b = 3;\n3 +const c = 4;\n   return a;\n\
                    __old hunk__\n const a = 1;\n-const b = 2;\n return a;";
    let result = render(&[foo()]);
    assert_eq!(result.text, expected);
    assert!(!result.text.contains("@@ -1,4 +1,5 @@"));
    assert_eq!(result.included, [FOO_PATH]);
    assert_eq!(result.estimated_tokens, estimate_tokens(expected));
    assert!(!result.truncated);
}

#[test]
fn numbers_only_the_added_lines() {
    let text = render(&[foo()]).text;
    let lines: Vec<&str> = block(&text, FOO_PATH).lines().collect();
    for line in [
        "2 +const b = 3;",
        "3 +const c = 4;",
        "   const a = 1;",
        "   return a;",
    ] {
        assert!(lines.contains(&line), "{line:?} missing");
    }
    let numbered: Vec<&&str> = lines
        .iter()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(numbered, [&"2 +const b = 3;", &"3 +const c = 4;"]);
}

#[test]
fn pads_line_numbers_to_a_common_width_within_a_file() {
    let patch = "@@ -9,2 +9,4 @@ fn\n ctx\n+nine\n@@ -100,1 +102,2 @@ fn2\n+onehundred";
    let result = render(&[file("a.ts", "modified", 2, 0, Some(patch))]);
    let lines: Vec<&str> = result.text.lines().collect();
    for line in [" 10 +nine", "102 +onehundred", "     ctx", "@@ ... @@ fn2"] {
        assert!(lines.contains(&line), "{line:?} missing");
    }
    assert_eq!(citable(&result, "a.ts"), [10, 102]);
}

#[test]
fn old_hunk_is_unnumbered_and_has_no_added_lines() {
    let text = render(&[foo()]).text;
    let block = block(&text, FOO_PATH);
    let old = &block[block.find("__old hunk__").unwrap()..];
    assert!(old.contains("-const b = 2;"));
    assert!(old.contains(" const a = 1;"));
    assert!(!old.contains("const c = 4;"));
    assert!(!old
        .lines()
        .any(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())));
}

#[test]
fn old_hunk_is_omitted_for_a_file_that_only_added_lines() {
    let text = render(&[added_only()]).text;
    let block = block(&text, "apps/web/src/lib/bar.ts");
    assert!(block.contains("__new hunk__\n1 +export const bar = 1;\n2 +export const baz = 2;"));
    assert!(!block.contains("__old hunk__"));
    assert!(block.contains("@@ ... @@\n"));
}

#[test]
fn names_the_old_path_of_a_renamed_file() {
    let renamed = PrFile {
        path: "new/foo.ts".to_owned(),
        status: "renamed".into(),
        ..foo()
    };
    let renames = BTreeMap::from([("new/foo.ts".to_owned(), "old/foo.ts".to_owned())]);
    let text =
        render_reviewer_patch_with_renames(std::slice::from_ref(&renamed), &renames, 1000).text;
    assert!(text.contains("## File: 'new/foo.ts' (renamed from 'old/foo.ts')\n\n@@ ... @@"));

    // Without a map entry nothing names the old path.
    assert!(render(&[renamed])
        .text
        .contains("## File: 'new/foo.ts'\n\n"));
}

#[test]
fn reads_the_old_path_of_a_rename_from_git_metadata() {
    let patch = "diff --git a/old/foo.ts b/new/foo.ts\nsimilarity index 90%\n\
                 rename from old/foo.ts\r\nrename to new/foo.ts\n\
                 @@ -1,1 +1,2 @@\n ctx\n+added";
    let renamed = file("new/foo.ts", "renamed", 1, 0, Some(patch));
    let text = render(&[renamed]).text;
    assert!(text.contains("## File: 'new/foo.ts' (renamed from 'old/foo.ts')"));
    assert!(text.contains("2 +added"));
    assert!(!text.contains("rename to"));
}

#[test]
fn skips_the_no_newline_marker() {
    let patch = "@@ -1,1 +1,1 @@\n-old\n+new\n\\ No newline at end of file\n";
    let result = render(&[file("a.ts", "modified", 1, 1, Some(patch))]);
    assert!(!result.text.contains("No newline at end of file"));
    assert!(result.text.contains("1 +new"));
    assert_eq!(citable(&result, "a.ts"), [1]);
    assert!(result.warnings.is_empty());
}

// Line numbers.

#[test]
fn a_cr_inside_a_hunk_header_still_parses() {
    let patch = "@@ -1,2 +1,3 @@ fn a() {\n ctx\n ctx\n+x\n\
                 @@ -40,2 +41,3 @@ let s = \"a\rb\";\r\n ctx\n ctx\n+y";
    let result = render(&[file("a.ts", "modified", 2, 0, Some(patch))]);
    assert_eq!(citable(&result, "a.ts"), [3, 43]);
    assert!(result
        .text
        .contains("@@ ... @@ let s = \"a\rb\";\n__new hunk__"));
    assert!(result.text.contains("43 +y"));
}

#[test]
fn a_later_unparseable_header_drops_the_whole_file() {
    let patch = "@@ -1,1 +1,2 @@ fine\n ctx\n+kept\n@@ -5 +x,2 @@ broken\n+lost";
    let result = render(&[file("a.ts", "modified", 2, 0, Some(patch))]);
    assert_eq!(result.omitted.not_parsed, ["a.ts"]);
    assert!(result.text.contains("## Patch Not Parsed"));
    assert!(result.text.contains("- a.ts"));
    assert!(!result.text.contains("## File: 'a.ts'"));
    assert!(!result.text.contains("kept"));
    assert!(result.citable_lines.is_empty());
    assert!(result.included.is_empty());
}

#[test]
fn skips_git_metadata_strips_crs_adds_no_phantom_line_and_never_cites_line_zero() {
    let patch = "diff --git a/x.ts b/x.ts\r\nindex 1111111..2222222 100644\r\n\
                 --- a/x.ts\r\n+++ b/x.ts\r\n@@ -0,0 +0,2 @@\r\n+one\r\n+two\r\n";
    let result = render(&[file("x.ts", "added", 2, 0, Some(patch))]);
    assert_eq!(citable(&result, "x.ts"), [1, 2]);
    assert!(result.warnings.is_empty());
    assert!(!result.text.contains('\r'));
    assert!(!result.text.contains("diff --git"));
    assert!(!result.text.contains("b/x.ts"));
    assert!(result
        .text
        .ends_with("## File: 'x.ts'\n\n@@ ... @@\n__new hunk__\n1 +one\n2 +two"));
}

// Anchors.

#[test]
fn citable_lines_are_authoritative_over_a_forged_number_in_the_text() {
    let patch = "@@ -1,2 +1,3 @@\n 42 +forged\n+real\n ctx";
    let result = render(&[file("a.ts", "modified", 1, 0, Some(patch))]);
    // The context line reads like an added line 42; only line 2 was added.
    assert!(result.text.lines().any(|l| l.trim_start() == "42 +forged"));
    assert!(result.text.contains("\n2 +real\n"));
    assert_eq!(
        result.citable_lines,
        BTreeMap::from([("a.ts".to_owned(), vec![2])])
    );
}

#[test]
fn citable_lines_cover_only_files_in_the_text() {
    let files = [
        big_file("a.ts", 20),
        big_file("b.ts", 200),
        file("gone.ts", "removed", 0, 3, Some("@@ -1,1 +0,0 @@\n-x")),
        file("logo.png", "modified", 0, 0, None),
    ];
    let result = render_reviewer_patch(&files, 2000);
    assert_eq!(result.omitted.over_budget, ["b.ts"]);
    assert_eq!(result.citable_lines.keys().collect::<Vec<_>>(), ["a.ts"]);
    assert_eq!(citable(&result, "a.ts"), (1..=20).collect::<Vec<u32>>());
}

#[test]
fn a_count_mismatch_adds_a_warning_and_still_shows_the_patch() {
    let mut miscounted = foo();
    miscounted.additions = 5;
    let result = render(&[miscounted, added_only()]);
    assert_eq!(result.warnings, [FOO_PATH]);
    let warning = result.text.find("## Rendering Warnings").unwrap();
    let listed = result.text.find(&format!("- {FOO_PATH}")).unwrap();
    let shown = result.text.find(&format!("## File: '{FOO_PATH}'")).unwrap();
    assert!(warning < listed && listed < shown);
    assert!(result.text.contains("2 +const b = 3;"));
    assert!(!result.text.contains("- apps/web/src/lib/bar.ts"));
    assert_eq!(citable(&result, FOO_PATH), [2, 3]);
}

// Classification.

#[test]
fn an_unparseable_patch_is_not_reported_as_missing() {
    let result = render(&[
        foo(),
        file("weird.ts", "modified", 1, 0, Some("@@ nonsense @@\n+x")),
        file(
            "meta-only.ts",
            "modified",
            0,
            0,
            Some("diff --git a/m b/m\nindex 1..2"),
        ),
    ]);
    assert!(result.text.contains("## Patch Not Parsed"));
    assert!(!result.text.contains("## No Patch Available"));
    assert_eq!(result.omitted.not_parsed, ["weird.ts", "meta-only.ts"]);
    assert!(result.omitted.no_patch.is_empty());
    assert!(result.truncated);
}

#[test]
fn deleted_files_are_listed_by_name_only() {
    let gone = file("gone.ts", "removed", 0, 40, Some("@@ -1,40 +0,0 @@\n-x"));
    let result = render(&[foo(), gone]);
    assert!(result.text.ends_with("## Deleted Files\n\n- gone.ts"));
    assert!(!result.text.contains("## File: 'gone.ts'"));
    assert_eq!(result.omitted.deleted, ["gone.ts"]);
    assert!(!result.truncated);
}

#[test]
fn files_without_a_patch_are_listed_as_unreviewed() {
    let result = render(&[
        foo(),
        file("logo.png", "modified", 0, 0, None),
        file("empty.bin", "added", 0, 0, Some("")),
    ]);
    assert!(result.text.contains("## No Patch Available"));
    assert!(result.text.contains("not reviewed"));
    assert!(result.text.ends_with("- logo.png\n- empty.bin"));
    assert_eq!(result.omitted.no_patch, ["logo.png", "empty.bin"]);
}

#[test]
fn a_file_that_only_removed_lines_keeps_its_old_hunk() {
    let patch = "@@ -1,3 +1,2 @@ mod a\n keep\n-drop\n keep too";
    let result = render(&[file("a.ts", "modified", 0, 1, Some(patch))]);
    let block = block(&result.text, "a.ts");
    assert!(block.contains("__new hunk__\n   keep\n   keep too\n__old hunk__\n keep\n-drop"));
    assert_eq!(result.citable_lines.get("a.ts"), Some(&vec![]));
}

#[test]
fn an_empty_file_list_renders_nothing() {
    assert_eq!(render(&[]), ReviewerPatch::default());
    assert_eq!(render(&[]).text, "");
}

#[test]
fn totals_count_every_file_including_omitted_ones() {
    let gone = file("gone.ts", "removed", 0, 40, None);
    assert!(render(&[foo(), gone])
        .text
        .starts_with("## PR Diff (+2/-41 across 2 files)\n\n"));
}

// Token budget.

#[test]
fn lists_overflow_by_name_under_the_budget_heading() {
    let files = [
        big_file("a.ts", 60),
        big_file("b.ts", 60),
        big_file("c.ts", 60),
    ];
    let result = render_reviewer_patch(&files, 1200);
    assert!(result.truncated);
    assert!(!result.omitted.over_budget.is_empty());
    assert!(result.text.contains("## Not Reviewed — Token Budget"));
    assert!(result.text.contains("not\nreviewed"));
    for path in &result.omitted.over_budget {
        assert!(result.text.contains(&format!("- {path} (+60/-60)")));
        assert!(!result.text.contains(&format!("## File: '{path}'")));
    }
    assert!(result.estimated_tokens <= 1200);
}

#[test]
fn pass_two_restores_deletions_in_file_order_while_they_fit() {
    let files = [big_file("a.ts", 40), big_file("b.ts", 40)];
    let full = render(&files);
    assert!(full.deletions_omitted.is_empty());

    // The whole text no longer fits once the worst-case manifest is reserved.
    let packed = render_reviewer_patch(&files, full.estimated_tokens);
    assert_eq!(packed.included, ["a.ts", "b.ts"]);
    assert!(packed.omitted.over_budget.is_empty());
    assert_eq!(packed.deletions_omitted, ["b.ts"]);
    assert!(packed.truncated);
    let (a, b) = (block(&packed.text, "a.ts"), block(&packed.text, "b.ts"));
    assert!(a.contains("__old hunk__") && !a.contains("deletions omitted"));
    assert!(b.starts_with("## File: 'b.ts'\n(deletions omitted for space"));
    assert!(!b.contains("__old hunk__") && !b.contains("-// removed"));
    assert!(b.contains("40 +// added line 39"));

    // Tighter still, both lose their deletions before either file is dropped.
    let tight = render_reviewer_patch(&files, full.estimated_tokens * 7 / 10);
    assert_eq!(tight.included, ["a.ts", "b.ts"]);
    assert_eq!(tight.deletions_omitted, ["a.ts", "b.ts"]);
    assert!(tight.omitted.over_budget.is_empty());
}

#[test]
fn a_file_without_its_deletions_loses_its_deletion_only_hunks() {
    let patch = format!(
        "@@ -1,4 +1,1 @@ doomed\n ctx\n-{}\n-{}\n@@ -20,1 +18,2 @@ kept\n+const kept = 1;",
        "y".repeat(300),
        "z".repeat(300)
    );
    let files = [file("a.ts", "modified", 1, 2, Some(&patch))];
    let full = render(&files);
    assert!(full.text.contains("@@ ... @@ doomed"));

    let packed = render_reviewer_patch(&files, full.estimated_tokens * 3 / 4);
    assert_eq!(packed.deletions_omitted, ["a.ts"]);
    assert!(packed
        .text
        .contains("@@ ... @@ kept\n__new hunk__\n18 +const kept = 1;"));
    assert!(!packed.text.contains("doomed"));
    assert!(!packed.text.contains(&"y".repeat(300)));
    assert_eq!(citable(&packed, "a.ts"), [18]);
}

#[test]
fn never_exceeds_the_budget_it_was_given() {
    let mut files: Vec<PrFile> = (0..12).map(|i| big_file(&format!("f{i}.ts"), 30)).collect();
    let mut miscounted = foo();
    miscounted.additions = 9;
    files.extend([
        miscounted,
        added_only(),
        file("logo.png", "modified", 0, 0, None),
    ]);
    files.extend(deleted_routes(3));
    for budget in (400..9000).step_by(37) {
        let result = render_reviewer_patch(&files, budget);
        assert!(result.estimated_tokens <= budget, "budget {budget}");
        assert_eq!(result.estimated_tokens, estimate_tokens(&result.text));
    }
}

#[test]
fn the_omission_manifest_counts_against_the_budget() {
    let mut files = vec![
        big_file("a.ts", 25),
        big_file("b.ts", 25),
        big_file("c.ts", 25),
    ];
    files.extend(deleted_routes(30));
    let result = render_reviewer_patch(&files, 1200);
    assert!(result.estimated_tokens <= 1200);
    // Patch text is what gets cut, not the manifest.
    assert!(result.text.contains("## Deleted Files"));
    assert_eq!(result.omitted.deleted.len(), 30);
    assert!(!result.omitted.over_budget.is_empty());
}

#[test]
fn the_manifest_is_kept_even_when_it_alone_exceeds_the_budget() {
    let mut files = vec![big_file("a.ts", 20)];
    files.extend(deleted_routes(40));
    let result = render_reviewer_patch(&files, 40);
    assert!(result.included.is_empty());
    assert!(result.text.contains("## Deleted Files"));
    assert!(result.text.contains("## Not Reviewed — Token Budget\n"));
    assert!(result.text.contains("- a.ts (+20/-20)"));
    assert_eq!(result.estimated_tokens, estimate_tokens(&result.text));
    assert!(result.estimated_tokens > 40);
}

#[test]
fn caps_each_name_list_at_fifty() {
    let files: Vec<PrFile> = (0..120)
        .map(|i| file(&format!("pkg/gen/file-{i}.ts"), "removed", 0, 1, None))
        .collect();
    let result = render(&files);
    assert!(result.text.contains("- pkg/gen/file-0.ts\n"));
    assert!(result
        .text
        .contains("- pkg/gen/file-49.ts\n- … and 70 more"));
    assert!(!result.text.contains("- pkg/gen/file-50.ts"));
    assert!(result.text.ends_with("- … and 70 more"));
    assert_eq!(result.omitted.deleted.len(), 120);
}

#[test]
fn lists_a_file_that_fits_nowhere_as_not_reviewed() {
    let result = render_reviewer_patch(&[big_file("a.ts", 200)], 60);
    assert!(result.included.is_empty());
    assert!(result.citable_lines.is_empty());
    assert_eq!(result.omitted.over_budget, ["a.ts"]);
    assert!(result.text.contains("## Not Reviewed — Token Budget"));
    assert!(result.text.contains("- a.ts (+200/-200)"));
    assert!(result.truncated);
}

// Estimates and serialization.

#[test]
fn estimates_four_characters_to_a_token() {
    assert_eq!(estimate_tokens(""), 0);
    assert_eq!(estimate_tokens("abcd"), 1);
    assert_eq!(estimate_tokens("abcde"), 2);
    assert_eq!(estimate_tokens("— … é"), 2);
}

#[test]
fn serializes_in_camel_case() {
    let json = serde_json::to_value(render(&[foo(), file("x.bin", "added", 0, 0, None)])).unwrap();
    assert_eq!(json["citableLines"][FOO_PATH], serde_json::json!([2, 3]));
    assert_eq!(json["omitted"]["noPatch"], serde_json::json!(["x.bin"]));
    assert_eq!(json["omitted"]["overBudget"], serde_json::json!([]));
    assert_eq!(json["deletionsOmitted"], serde_json::json!([]));
    assert!(json["estimatedTokens"].is_u64());
    assert_eq!(json["truncated"], serde_json::json!(false));
}
