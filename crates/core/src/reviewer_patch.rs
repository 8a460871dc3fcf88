//! The PR's diff as evidence for the AI reviewer, which is told to cite `path:line`.
//!
//! Only added lines carry a number, so a citation can only anchor to a line the PR
//! introduced. Whatever does not fit the token budget, or cannot be shown, is still named:
//! a reviewer must never read a file's absence as a clean bill of health.
//!
//! The text is for the model. Anything that checks citations must use
//! [`ReviewerPatch::citable_lines`], never the text: patch content is authored by the PR,
//! and a context line can be made to look exactly like a numbered added line.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::enums::FileStatus;
use crate::pull_request::PrFile;

mod hunks;
#[cfg(test)]
mod tests;

/// Leaves the reviewer room to reason in a long context window while still admitting most
/// task-sized PRs whole.
pub const DEFAULT_TOKEN_BUDGET: usize = 24_000;

const CHARS_PER_TOKEN: usize = 4;
/// Caps each name list, so a huge PR cannot make the manifest itself the overflow.
const NAME_LIST_CAP: usize = 50;
const SEPARATOR: &str = "\n\n";

/// Files named in the text without their patch, by reason. Each lists every file, even
/// where the text stops at [`NAME_LIST_CAP`] names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Omitted {
    /// Status `removed`.
    pub deleted: Vec<String>,
    /// GitHub sent no patch text (binary, or too large to diff).
    pub no_patch: Vec<String>,
    /// Patch text that could not be read into hunks; no line number could be trusted.
    pub not_parsed: Vec<String>,
    /// Did not fit the token budget; not reviewed.
    pub over_budget: Vec<String>,
}

/// The rendered evidence and what it covers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewerPatch {
    /// Markdown, ready to inline in the reviewer's task; empty when the PR has no files.
    pub text: String,
    /// Files whose patch is in `text`, in input order.
    pub included: Vec<String>,
    /// The authoritative anchors: each included file's added new-file line numbers.
    pub citable_lines: BTreeMap<String, Vec<u32>>,
    /// Included files shown without their removed lines, for the budget.
    pub deletions_omitted: Vec<String>,
    pub omitted: Omitted,
    /// Included files whose parsed added-line count disagrees with GitHub's `additions`;
    /// their `citable_lines` may be incomplete.
    pub warnings: Vec<String>,
    /// Of `text` as built; above the budget only when the omission manifest alone is.
    pub estimated_tokens: usize,
    /// Anything was dropped: a file's patch, or a file's deletions.
    pub truncated: bool,
}

/// An estimate, cheap and stable: one token per four characters, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(CHARS_PER_TOKEN)
}

/// What a section adds to the text, its separator included, so the sum over sections is
/// a ceiling for the whole.
fn cost(section: &str) -> usize {
    if section.is_empty() {
        0
    } else {
        (section.chars().count() + SEPARATOR.len()).div_ceil(CHARS_PER_TOKEN)
    }
}

/// Renders `files` within `budget_tokens`; renamed files show the old path when the patch
/// carries git's `rename from` metadata.
pub fn render_reviewer_patch(files: &[PrFile], budget_tokens: usize) -> ReviewerPatch {
    render_reviewer_patch_with_renames(files, &BTreeMap::new(), budget_tokens)
}

/// As [`render_reviewer_patch`], with the old path of renamed files (new path → old path),
/// e.g. from GitHub's `previous_filename`, which `PrFile` does not carry.
pub fn render_reviewer_patch_with_renames(
    files: &[PrFile],
    renames: &BTreeMap<String, String>,
    budget_tokens: usize,
) -> ReviewerPatch {
    if files.is_empty() {
        return ReviewerPatch::default();
    }
    let mut omitted = Omitted::default();
    let mut candidates = Vec::new();
    for file in files {
        if file.status == FileStatus::Removed {
            omitted.deleted.push(file.path.clone());
            continue;
        }
        let Some(patch) = file.patch.as_deref().filter(|p| !p.is_empty()) else {
            omitted.no_patch.push(file.path.clone());
            continue;
        };
        let renamed_from = match renames.get(&file.path) {
            Some(old) => Some(old.as_str()),
            None if file.status == FileStatus::Renamed => hunks::rename_source(patch),
            None => None,
        };
        match Candidate::new(file, patch, renamed_from) {
            Some(candidate) => candidates.push(candidate),
            // Patch text was there: the failure is ours, not a missing payload.
            None => omitted.not_parsed.push(file.path.clone()),
        }
    }

    let summary = summary(files);
    // Reserve the worst case of every section besides the file blocks, so the budget caps
    // the whole text. Subsets render no longer than their longest-first bound.
    let longest_first = |mut items: Vec<String>| {
        items.sort_by_key(|i| Reverse(i.chars().count()));
        items
    };
    let mismatched = |c: &&Candidate| c.mismatch;
    let reserve = estimate_tokens(&summary)
        + cost(&warnings_section(&longest_first(
            candidates
                .iter()
                .filter(mismatched)
                .map(|c| c.path.clone())
                .collect(),
        )))
        + cost(&over_budget_section(&longest_first(
            candidates.iter().map(Candidate::budget_item).collect(),
        )))
        + cost(&deleted_section(&omitted.deleted))
        + cost(&no_patch_section(&omitted.no_patch))
        + cost(&not_parsed_section(&omitted.not_parsed));
    let mut remaining = budget_tokens.saturating_sub(reserve);

    // Pass 1: every file's additions before any file's deletions.
    let mut picked: Vec<(&Candidate, bool)> = Vec::new();
    let mut over_budget = Vec::new();
    for candidate in &candidates {
        let with_deletions = candidate.starts_whole();
        let price = cost(candidate.body(with_deletions));
        if price <= remaining {
            remaining -= price;
            picked.push((candidate, with_deletions));
        } else {
            over_budget.push(candidate);
        }
    }
    // Pass 2: what is left restores deletions, in file order.
    for (candidate, with_deletions) in &mut picked {
        let (now, whole) = (cost(candidate.body(false)), cost(&candidate.whole));
        if !*with_deletions && whole <= now + remaining {
            remaining = remaining + now - whole;
            *with_deletions = true;
        }
    }

    let mut result = ReviewerPatch::default();
    for (candidate, with_deletions) in &picked {
        result.included.push(candidate.path.clone());
        result
            .citable_lines
            .insert(candidate.path.clone(), candidate.added_lines.clone());
        if !with_deletions {
            result.deletions_omitted.push(candidate.path.clone());
        }
        if candidate.mismatch {
            result.warnings.push(candidate.path.clone());
        }
    }
    omitted.over_budget = over_budget.iter().map(|c| c.path.clone()).collect();
    let budget_items: Vec<String> = over_budget.iter().map(|c| c.budget_item()).collect();

    let mut sections = vec![summary, warnings_section(&result.warnings)];
    sections.extend(picked.iter().map(|(c, whole)| c.body(*whole).to_owned()));
    sections.extend([
        over_budget_section(&budget_items),
        deleted_section(&omitted.deleted),
        no_patch_section(&omitted.no_patch),
        not_parsed_section(&omitted.not_parsed),
    ]);
    sections.retain(|s| !s.is_empty());
    result.text = sections.join(SEPARATOR);
    result.estimated_tokens = estimate_tokens(&result.text);
    result.truncated = !omitted.over_budget.is_empty()
        || !omitted.not_parsed.is_empty()
        || !result.deletions_omitted.is_empty();
    result.omitted = omitted;
    result
}

/// A file whose patch parsed, in both its renderings.
struct Candidate<'a> {
    path: &'a String,
    additions: i64,
    deletions: i64,
    whole: String,
    /// Without removed lines; `None` when the file has none, or nothing would be left.
    additions_only: Option<String>,
    added_lines: Vec<u32>,
    /// The parser found a different number of added lines than GitHub counted.
    mismatch: bool,
}

impl<'a> Candidate<'a> {
    fn new(file: &'a PrFile, patch: &str, renamed_from: Option<&str>) -> Option<Self> {
        let hunks = hunks::parse(patch)?;
        let header = match renamed_from {
            Some(old) => format!("## File: '{}' (renamed from '{old}')", file.path),
            None => format!("## File: '{}'", file.path),
        };
        let whole = hunks::render_file(&header, &hunks, true)?;
        let additions_only = if hunks.iter().any(hunks::Hunk::has_deletions) {
            hunks::render_file(&header, &hunks, false)
        } else {
            None
        };
        let added_lines = hunks::added_lines(&hunks);
        Some(Self {
            path: &file.path,
            additions: file.additions,
            deletions: file.deletions,
            mismatch: i64::try_from(added_lines.len()).ok() != Some(file.additions),
            whole,
            additions_only,
            added_lines,
        })
    }

    /// Whether pass 1 already takes the whole rendering: nothing to strip, or stripping
    /// (and saying so) would save nothing.
    fn starts_whole(&self) -> bool {
        self.additions_only
            .as_deref()
            .is_none_or(|stripped| cost(stripped) >= cost(&self.whole))
    }

    fn body(&self, with_deletions: bool) -> &str {
        match &self.additions_only {
            Some(stripped) if !with_deletions => stripped,
            _ => &self.whole,
        }
    }

    fn budget_item(&self) -> String {
        format!("{} (+{}/-{})", self.path, self.additions, self.deletions)
    }
}

fn summary(files: &[PrFile]) -> String {
    let added: i64 = files.iter().map(|f| f.additions).sum();
    let deleted: i64 = files.iter().map(|f| f.deletions).sum();
    let plural = if files.len() == 1 { "" } else { "s" };
    format!(
        "## PR Diff (+{added}/-{deleted} across {} file{plural})",
        files.len()
    )
}

/// `heading`, `explanation` and the capped name list; empty when there are no items.
fn section(heading: &str, explanation: &str, items: &[String]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut out = format!("{heading}\n\n");
    if !explanation.is_empty() {
        out.push_str(explanation);
        out.push_str(SEPARATOR);
    }
    let mut lines: Vec<String> = items
        .iter()
        .take(NAME_LIST_CAP)
        .map(|i| format!("- {i}"))
        .collect();
    if items.len() > NAME_LIST_CAP {
        lines.push(format!("- … and {} more", items.len() - NAME_LIST_CAP));
    }
    out.push_str(&lines.join("\n"));
    out
}

fn warnings_section(paths: &[String]) -> String {
    section(
        "## Rendering Warnings",
        "For these files the number of added lines shown disagrees with GitHub's own count.\n\
         Their patch is shown below, but a changed line may be missing from it: do not\n\
         conclude anything from a line's absence.",
        paths,
    )
}

fn over_budget_section(items: &[String]) -> String {
    section(
        "## Not Reviewed — Token Budget",
        "These files changed, but their patch did not fit the budget, so they are not\n\
         reviewed. Their absence is not evidence that they are clean: if the verdict\n\
         depends on them, escalate instead of approving.",
        items,
    )
}

fn deleted_section(paths: &[String]) -> String {
    section("## Deleted Files", "", paths)
}

fn no_patch_section(paths: &[String]) -> String {
    section(
        "## No Patch Available",
        "GitHub returned no patch for these files (binary, or too large to diff).\n\
         They are not reviewed.",
        paths,
    )
}

fn not_parsed_section(paths: &[String]) -> String {
    section(
        "## Patch Not Parsed",
        "GitHub returned a patch for these files, but it could not be read into hunks,\n\
         so no line numbers could be established. They are not reviewed.",
        paths,
    )
}
