//! A word-level difference of two texts, for a reviewer comparing a revised plan step's
//! description with the one they rejected. Words are runs of non-whitespace, so reflowing
//! a paragraph changes nothing.
//!
//! The longest common subsequence costs time and memory in the product of the two lengths,
//! so after trimming the common start and end, a middle larger than [`MAX_CELLS`] is shown
//! as replaced whole rather than compared.

use serde::{Deserialize, Serialize};

/// The largest middle compared word by word: 1,000 × 1,000 words, or 2,000 × 500.
pub const MAX_CELLS: usize = 1_000_000;

/// A run of words, joined by single spaces, that both texts share or only one has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "text", rename_all = "lowercase")]
pub enum WordSegment {
    Same(String),
    Added(String),
    Removed(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Same,
    Added,
    Removed,
}

/// The segments that turn `old` into `new`; where both change at one place, the removed
/// words come before the added ones.
pub fn word_diff(old: &str, new: &str) -> Vec<WordSegment> {
    let a: Vec<&str> = old.split_whitespace().collect();
    let b: Vec<&str> = new.split_whitespace().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);

    let mut ops: Vec<(Kind, &str)> = a[..prefix].iter().map(|w| (Kind::Same, *w)).collect();
    if mid_a.len().saturating_mul(mid_b.len()) > MAX_CELLS {
        ops.extend(mid_a.iter().map(|w| (Kind::Removed, *w)));
        ops.extend(mid_b.iter().map(|w| (Kind::Added, *w)));
    } else {
        lcs_ops(mid_a, mid_b, &mut ops);
    }
    ops.extend(a[a.len() - suffix..].iter().map(|w| (Kind::Same, *w)));
    merge(ops)
}

/// Appends the edit script of `a` → `b` from a table of common-subsequence lengths of their
/// suffixes. The lengths fit `u16`: the shorter side has at most √MAX_CELLS words.
fn lcs_ops<'a>(a: &[&'a str], b: &[&'a str], ops: &mut Vec<(Kind, &'a str)>) {
    let (n, m) = (a.len(), b.len());
    let width = m + 1;
    let mut table = vec![0u16; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i * width + j] = if a[i] == b[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            ops.push((Kind::Same, a[i]));
            i += 1;
            j += 1;
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
            ops.push((Kind::Removed, a[i]));
            i += 1;
        } else {
            ops.push((Kind::Added, b[j]));
            j += 1;
        }
    }
    ops.extend(a[i..].iter().map(|w| (Kind::Removed, *w)));
    ops.extend(b[j..].iter().map(|w| (Kind::Added, *w)));
}

/// Joins neighbouring words of one kind into one segment. A change's removals are gathered
/// before its additions, so "a b → c d" reads as one replacement, not alternating words.
fn merge(ops: Vec<(Kind, &str)>) -> Vec<WordSegment> {
    let mut out: Vec<(Kind, String)> = Vec::new();
    let mut pending_added: Option<String> = None;
    let push = |out: &mut Vec<(Kind, String)>, kind: Kind, word: &str| match out.last_mut() {
        Some((k, text)) if *k == kind => {
            text.push(' ');
            text.push_str(word);
        }
        _ => out.push((kind, word.to_string())),
    };
    for (kind, word) in ops {
        match kind {
            Kind::Added => match &mut pending_added {
                Some(text) => {
                    text.push(' ');
                    text.push_str(word);
                }
                None => pending_added = Some(word.to_string()),
            },
            Kind::Removed => push(&mut out, Kind::Removed, word),
            Kind::Same => {
                if let Some(text) = pending_added.take() {
                    out.push((Kind::Added, text));
                }
                push(&mut out, Kind::Same, word);
            }
        }
    }
    if let Some(text) = pending_added {
        out.push((Kind::Added, text));
    }
    out.into_iter()
        .map(|(kind, text)| match kind {
            Kind::Same => WordSegment::Same(text),
            Kind::Added => WordSegment::Added(text),
            Kind::Removed => WordSegment::Removed(text),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::WordSegment::{Added, Removed, Same};
    use super::*;

    fn s(text: &str) -> String {
        text.into()
    }

    #[test]
    fn equal_texts_are_one_same_segment_whatever_their_spacing() {
        assert_eq!(
            word_diff("Move the  checks\ninto lib", "Move the checks into lib"),
            [Same(s("Move the checks into lib"))]
        );
        assert_eq!(word_diff("", ""), []);
    }

    #[test]
    fn an_inserted_word_is_added() {
        assert_eq!(
            word_diff("Move the checks", "Move all the checks"),
            [Same(s("Move")), Added(s("all")), Same(s("the checks"))]
        );
    }

    #[test]
    fn a_replaced_phrase_reads_removed_then_added() {
        assert_eq!(
            word_diff(
                "Add tests for the parser and ship",
                "Add fuzzing for the lexer and ship"
            ),
            [
                Same(s("Add")),
                Removed(s("tests")),
                Added(s("fuzzing")),
                Same(s("for the")),
                Removed(s("parser")),
                Added(s("lexer")),
                Same(s("and ship")),
            ]
        );
        assert_eq!(
            word_diff("a b", "c d"),
            [Removed(s("a b")), Added(s("c d"))]
        );
    }

    #[test]
    fn text_from_nothing_or_to_nothing() {
        assert_eq!(word_diff("", "new words"), [Added(s("new words"))]);
        assert_eq!(word_diff("old words", ""), [Removed(s("old words"))]);
    }

    #[test]
    fn a_middle_too_large_is_replaced_whole() {
        let old: Vec<String> = (0..1500).map(|i| format!("o{i}")).collect();
        let new: Vec<String> = (0..1500).map(|i| format!("n{i}")).collect();
        let diff = word_diff(
            &format!("start {} end", old.join(" ")),
            &format!("start {} end", new.join(" ")),
        );
        assert_eq!(diff.len(), 4);
        assert_eq!(diff[0], Same(s("start")));
        assert!(matches!(&diff[1], Removed(t) if t.starts_with("o0 o1")));
        assert!(matches!(&diff[2], Added(t) if t.ends_with("n1499")));
        assert_eq!(diff[3], Same(s("end")));
    }

    #[test]
    fn a_long_text_with_a_small_change_is_compared_cheaply() {
        let words: Vec<String> = (0..5000).map(|i| format!("w{i}")).collect();
        let mut changed = words.clone();
        changed[2500] = "CHANGED".into();
        let diff = word_diff(&words.join(" "), &changed.join(" "));
        assert_eq!(diff.len(), 4);
        assert_eq!(diff[1], Removed(s("w2500")));
        assert_eq!(diff[2], Added(s("CHANGED")));
    }

    #[test]
    fn segments_serialize_with_their_kind() {
        assert_eq!(
            serde_json::to_value(Added(s("x"))).unwrap(),
            serde_json::json!({"kind": "added", "text": "x"})
        );
    }
}
