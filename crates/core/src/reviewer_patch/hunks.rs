//! Reading a unified-diff patch into hunks, and writing one file's block in the reviewer's
//! format. Line numbers are only ever taken from a hunk header that parsed: a wrong number
//! is worse than none, because downstream it looks exactly like a right one.

/// One line of a hunk body, without its marker.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Line<'a> {
    /// With its new-file line number, the only citable coordinate.
    Added(u32, &'a str),
    Removed(&'a str),
    Context(&'a str),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Hunk<'a> {
    /// What git wrote after the second `@@`, usually the enclosing symbol.
    symbol: &'a str,
    lines: Vec<Line<'a>>,
}

impl Hunk<'_> {
    fn has_additions(&self) -> bool {
        self.lines.iter().any(|l| matches!(l, Line::Added(..)))
    }

    pub(super) fn has_deletions(&self) -> bool {
        self.lines.iter().any(|l| matches!(l, Line::Removed(_)))
    }
}

/// Skips `\d+` and an optional `,\d+`; `None` when there is no leading digit.
fn skip_range(s: &str) -> Option<&str> {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let n = digits(s);
    if n == 0 {
        return None;
    }
    let rest = &s[n..];
    match rest.strip_prefix(',') {
        Some(after) if digits(after) > 0 => Some(&after[digits(after)..]),
        Some(_) => None,
        None => Some(rest),
    }
}

/// `@@ -a[,b] +c[,d] @@<symbol>` → (c, trimmed symbol). The symbol is git's copy of a
/// source line and may hold a bare CR or other line terminators; they do not stop it.
fn parse_header(line: &str) -> Option<(u32, &str)> {
    let rest = skip_range(line.strip_prefix("@@ -")?)?;
    let rest = rest.strip_prefix(" +")?;
    let start_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let start = rest[..start_len].parse().ok()?;
    let symbol = skip_range(rest)?.strip_prefix(" @@")?;
    Some((start, symbol.trim()))
}

/// The hunks of `patch`, or `None` when any hunk header does not parse: the new side's
/// position is then unknowable, so nothing in the file can be numbered.
pub(super) fn parse(patch: &str) -> Option<Vec<Hunk<'_>>> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut next_line: u32 = 1;
    // A trailing newline ends the last line; it does not start another.
    let raws = patch.strip_suffix('\n').unwrap_or(patch).split('\n');
    for raw in raws {
        // Every body line starts with ' ', '+', '-' or '\', so this can only be a header.
        if raw.starts_with("@@") {
            let (start, symbol) = parse_header(raw)?;
            hunks.push(Hunk {
                symbol,
                lines: Vec::new(),
            });
            // `+0,0` (a file emptied) has no added lines; line 0 is never an anchor.
            next_line = start.max(1);
            continue;
        }
        // Before the first header: `diff --git`, `index`, `---`/`+++` and rename metadata.
        let Some(hunk) = hunks.last_mut() else {
            continue;
        };
        // `\ No newline at end of file` describes the diff, not the code.
        if raw.starts_with('\\') {
            continue;
        }
        let body = raw.strip_suffix('\r').unwrap_or(raw);
        let line = if let Some(text) = body.strip_prefix('+') {
            Line::Added(next_line, text)
        } else if let Some(text) = body.strip_prefix('-') {
            Line::Removed(text)
        } else {
            Line::Context(body.strip_prefix(' ').unwrap_or(body))
        };
        if !matches!(line, Line::Removed(_)) {
            next_line = next_line.checked_add(1)?;
        }
        hunk.lines.push(line);
    }
    Some(hunks)
}

/// The old path from git's pre-hunk `rename from` metadata, when the patch carries it.
pub(super) fn rename_source(patch: &str) -> Option<&str> {
    patch
        .split('\n')
        .take_while(|l| !l.starts_with("@@"))
        .find_map(|l| l.trim_end_matches('\r').strip_prefix("rename from "))
        .filter(|old| !old.is_empty())
}

/// New-file line numbers of every added line, in patch order.
pub(super) fn added_lines(hunks: &[Hunk]) -> Vec<u32> {
    hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter_map(|l| match l {
            Line::Added(n, _) => Some(*n),
            _ => None,
        })
        .collect()
}

/// Said in the text, not only in the result: an additions-only block is otherwise
/// indistinguishable from the complete diff of a file that only added lines.
const DELETIONS_OMITTED: &str = "(deletions omitted for space: this file's removed lines \
     and its hunks that only removed lines are not shown.)";

/// One file's block: `header`, then each hunk as `@@ ... @@ <symbol>`, `__new hunk__` and,
/// with deletions, `__old hunk__`. Without deletions, hunks that only removed lines are
/// dropped, as they would hold nothing citable. `None` when no hunk is left to show.
pub(super) fn render_file(header: &str, hunks: &[Hunk], with_deletions: bool) -> Option<String> {
    let width = added_lines(hunks)
        .into_iter()
        .max()
        .map_or(1, |n| n.to_string().len());
    let blocks: Vec<String> = hunks
        .iter()
        .filter(|h| with_deletions || h.has_additions())
        .map(|h| render_hunk(h, width, with_deletions))
        .collect();
    if blocks.is_empty() {
        return None;
    }
    let note = if !with_deletions && hunks.iter().any(Hunk::has_deletions) {
        format!("\n{DELETIONS_OMITTED}")
    } else {
        String::new()
    };
    Some(format!("{header}{note}\n\n{}", blocks.join("\n\n")))
}

fn render_hunk(hunk: &Hunk, width: usize, with_deletions: bool) -> String {
    // The ranges go: the inline numbers are the coordinates to cite, and a second set
    // in the header would only invite citing those instead.
    let mut out = vec![match hunk.symbol {
        "" => "@@ ... @@".to_owned(),
        symbol => format!("@@ ... @@ {symbol}"),
    }];
    out.push("__new hunk__".to_owned());
    for line in &hunk.lines {
        match line {
            Line::Added(n, text) => out.push(format!("{n:>width$} +{text}")),
            Line::Context(text) => out.push(format!("{:width$}  {text}", "")),
            Line::Removed(_) => {}
        }
    }
    if with_deletions && hunk.has_deletions() {
        out.push("__old hunk__".to_owned());
        for line in &hunk.lines {
            match line {
                Line::Removed(text) => out.push(format!("-{text}")),
                Line::Context(text) => out.push(format!(" {text}")),
                Line::Added(..) => {}
            }
        }
    }
    out.join("\n")
}
