//! The Markdown a checklist is written in, parsed into blocks the dashboard renders as
//! elements: headings, paragraphs, bullets and `- [ ]` / `- [x]` items, with `code`,
//! **bold** and bare `http(s)://` links inline. There is no raw HTML: text stays text,
//! whatever it contains, and only web addresses become links.

#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    Text(String),
    Code(String),
    Bold(String),
    /// A bare `http://` or `https://` address.
    Link(String),
}

/// Whether `url` is a web address (`http://` or `https://` with a host), the only kind the
/// dashboard ever makes a link of: an agent's `javascript:` URL stays text.
pub fn is_web_address(url: &str) -> bool {
    (url.starts_with("https://") || url.starts_with("http://"))
        && !url.contains(char::is_whitespace)
        && url
            .split_once("://")
            .is_some_and(|(_, rest)| !rest.is_empty() && !rest.starts_with('/'))
}

/// The web address at the start of `rest`, without the punctuation that ends a sentence
/// (a closing bracket only when the address does not open one itself).
fn link_at(rest: &str) -> Option<&str> {
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let mut url = &rest[..end];
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', '\'', '"']);
        let unbalanced =
            trimmed.ends_with(')') && trimmed.matches('(').count() < trimmed.matches(')').count();
        url = if unbalanced {
            &trimmed[..trimmed.len() - 1]
        } else {
            trimmed
        };
        if !unbalanced {
            break;
        }
    }
    is_web_address(url).then_some(url)
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    /// A list item; `checked` is `Some` for a checklist item.
    Item {
        checked: Option<bool>,
        text: Vec<Inline>,
    },
}

/// Splits a line into text, `code`, **bold** and link runs. An unclosed marker is plain text.
pub fn inline(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let at_word = plain.is_empty() || plain.ends_with(|c: char| c.is_whitespace() || c == '(');
        if let Some(url) = link_at(rest).filter(|_| at_word) {
            if !plain.is_empty() {
                out.push(Inline::Text(std::mem::take(&mut plain)));
            }
            out.push(Inline::Link(url.to_string()));
            rest = &rest[url.len()..];
            continue;
        }
        let (marker, make): (&str, fn(String) -> Inline) = if rest.starts_with('`') {
            ("`", Inline::Code)
        } else if rest.starts_with("**") {
            ("**", Inline::Bold)
        } else {
            let c = rest.chars().next().unwrap_or_default();
            plain.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        };
        match rest[marker.len()..].find(marker) {
            Some(end) if end > 0 => {
                if !plain.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut plain)));
                }
                out.push(make(rest[marker.len()..marker.len() + end].to_string()));
                rest = &rest[marker.len() * 2 + end..];
            }
            _ => {
                plain.push_str(marker);
                rest = &rest[marker.len()..];
            }
        }
    }
    if !plain.is_empty() {
        out.push(Inline::Text(plain));
    }
    out
}

/// Parses `source` into blocks; consecutive plain lines join into one paragraph.
pub fn parse(source: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(inline(&paragraph.join(" "))));
            paragraph.clear();
        }
    };
    for line in source.lines() {
        let trimmed = line.trim();
        let item = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
            .or_else(|| trimmed.strip_prefix("+ "));
        if trimmed.is_empty() {
            flush(&mut paragraph, &mut blocks);
        } else if let Some(item) = item {
            flush(&mut paragraph, &mut blocks);
            let (checked, text) = if let Some(t) = item.strip_prefix("[ ] ") {
                (Some(false), t)
            } else if let Some(t) = item
                .strip_prefix("[x] ")
                .or_else(|| item.strip_prefix("[X] "))
            {
                (Some(true), t)
            } else {
                (None, item)
            };
            blocks.push(Block::Item {
                checked,
                text: inline(text.trim()),
            });
        } else if let Some(level) = (1..=3u8).find(|l| {
            trimmed.starts_with(&"#".repeat(*l as usize)) && trimmed[*l as usize..].starts_with(' ')
        }) {
            flush(&mut paragraph, &mut blocks);
            blocks.push(Block::Heading(
                level,
                inline(trimmed[level as usize..].trim()),
            ));
        } else {
            paragraph.push(trimmed);
        }
    }
    flush(&mut paragraph, &mut blocks);
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Inline {
        Inline::Text(s.into())
    }

    #[test]
    fn checklists_bullets_headings_and_paragraphs() {
        let blocks = parse("## Daily\n- [ ] API p99\n- [x] Error rate\n* plain\n\nSome\nwords");
        assert_eq!(
            blocks,
            vec![
                Block::Heading(2, vec![text("Daily")]),
                Block::Item {
                    checked: Some(false),
                    text: vec![text("API p99")]
                },
                Block::Item {
                    checked: Some(true),
                    text: vec![text("Error rate")]
                },
                Block::Item {
                    checked: None,
                    text: vec![text("plain")]
                },
                Block::Paragraph(vec![text("Some words")]),
            ]
        );
    }

    #[test]
    fn code_and_bold_inline_and_html_stays_text() {
        assert_eq!(
            inline("set `missionComplete` **only** when <b>done</b>"),
            vec![
                text("set "),
                Inline::Code("missionComplete".into()),
                text(" "),
                Inline::Bold("only".into()),
                text(" when <b>done</b>"),
            ]
        );
        assert_eq!(
            inline("a ` lone tick and ** stars"),
            vec![text("a ` lone tick and ** stars")]
        );
        assert_eq!(
            parse("#nospace"),
            vec![Block::Paragraph(vec![text("#nospace")])]
        );
    }

    #[test]
    fn bare_web_addresses_become_links_and_nothing_else_does() {
        assert_eq!(
            inline("see https://example.com/spec?a=1. Or (http://x.io/p), then **done**"),
            vec![
                text("see "),
                Inline::Link("https://example.com/spec?a=1".into()),
                text(". Or ("),
                Inline::Link("http://x.io/p".into()),
                text("), then "),
                Inline::Bold("done".into()),
            ]
        );
        // Other schemes, addresses glued to a word, and an empty host stay text.
        assert_eq!(
            inline("javascript:alert(1) xhttps://a.b https:// ftp://f.io"),
            vec![text("javascript:alert(1) xhttps://a.b https:// ftp://f.io")]
        );
        // A bracket the address opens is part of it.
        assert_eq!(
            inline("(see https://en.wikipedia.org/wiki/Rust_(language))."),
            vec![
                text("(see "),
                Inline::Link("https://en.wikipedia.org/wiki/Rust_(language)".into()),
                text(")."),
            ]
        );
        assert!(is_web_address("https://github.com/acme/web/pull/7"));
        for not in [
            "javascript:alert(1)",
            "https://",
            "https:///x",
            "http://a b",
            "ftp://f.io",
        ] {
            assert!(!is_web_address(not), "{not}");
        }
        // Inside code an address is code.
        assert_eq!(
            inline("`https://a.io`"),
            vec![Inline::Code("https://a.io".into())]
        );
    }
}
