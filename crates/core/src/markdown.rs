//! The Markdown people and agents write (checklists, notes, summaries, plan steps), read by
//! pulldown-cmark (CommonMark with tables, strikethrough and task lists) into a tree of the
//! few elements the dashboard draws. Nothing in it is raw HTML: HTML in the source stays
//! text, and only web addresses become links — written as `[text](https://…)`, `<https://…>`
//! or bare in the text.

/// Whether `url` is a web address (`http://` or `https://` with a host), the only kind the
/// dashboard ever makes a link of: an agent's `javascript:` URL stays text.
pub fn is_web_address(url: &str) -> bool {
    (url.starts_with("https://") || url.starts_with("http://"))
        && !url.contains(char::is_whitespace)
        && url
            .split_once("://")
            .is_some_and(|(_, rest)| !rest.is_empty() && !rest.starts_with('/'))
}

/// The elements a document may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    Paragraph,
    /// 1–6, as written.
    Heading(u8),
    BlockQuote,
    CodeBlock,
    /// A list, numbered from `Some(start)` or bulleted.
    List(Option<u64>),
    Item,
    Emphasis,
    Strong,
    Strikethrough,
    Code,
    Table,
    TableHead,
    TableRow,
    TableCell,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Text(String),
    Element(Tag, Vec<Node>),
    /// A link to a web address (checked with [`is_web_address`]).
    Link(String, Vec<Node>),
    /// A task list item's box.
    Check(bool),
    LineBreak,
    Rule,
}

#[cfg(feature = "markdown")]
mod read {
    use super::*;
    use pulldown_cmark::{Event, Options, Parser, Tag as Md, TagEnd};

    /// The web address at the start of `rest`, without the punctuation that ends a sentence
    /// (a closing bracket only when the address does not open one itself).
    fn link_at(rest: &str) -> Option<&str> {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let mut url = &rest[..end];
        loop {
            let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', '\'', '"']);
            let unbalanced = trimmed.ends_with(')')
                && trimmed.matches('(').count() < trimmed.matches(')').count();
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

    /// Splits the bare web addresses out of `text` as links.
    fn with_bare_links(text: &str, out: &mut Vec<Node>) {
        let mut plain = String::new();
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            let at_word =
                plain.is_empty() || plain.ends_with(|c: char| c.is_whitespace() || c == '(');
            if let Some(url) = link_at(rest).filter(|_| at_word) {
                if !plain.is_empty() {
                    out.push(Node::Text(std::mem::take(&mut plain)));
                }
                out.push(Node::Link(url.into(), vec![Node::Text(url.into())]));
                rest = &rest[url.len()..];
                continue;
            }
            plain.push(c);
            rest = &rest[c.len_utf8()..];
        }
        if !plain.is_empty() {
            out.push(Node::Text(plain));
        }
    }

    /// What is being built: an element, a web link, or a link whose address is not one
    /// (its text is kept, the link is not).
    enum Open {
        Element(Tag),
        Link(String),
        Unlinked,
        Image,
    }

    /// Reads `source` as CommonMark into the document tree.
    pub fn parse(source: &str) -> Vec<Node> {
        let options =
            Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
        let mut stack: Vec<(Open, Vec<Node>)> = vec![(Open::Unlinked, Vec::new())];
        let mut in_link = 0usize;
        let mut in_code = false;
        for event in Parser::new_ext(source, options) {
            let top = &mut stack.last_mut().expect("the root is never closed").1;
            match event {
                Event::Start(tag) => {
                    let open = match tag {
                        Md::Paragraph => Open::Element(Tag::Paragraph),
                        Md::Heading { level, .. } => Open::Element(Tag::Heading(level as u8)),
                        Md::BlockQuote(_) => Open::Element(Tag::BlockQuote),
                        Md::CodeBlock(_) => {
                            in_code = true;
                            Open::Element(Tag::CodeBlock)
                        }
                        Md::List(start) => Open::Element(Tag::List(start)),
                        Md::Item => Open::Element(Tag::Item),
                        Md::Emphasis => Open::Element(Tag::Emphasis),
                        Md::Strong => Open::Element(Tag::Strong),
                        Md::Strikethrough => Open::Element(Tag::Strikethrough),
                        Md::Table(_) => Open::Element(Tag::Table),
                        Md::TableHead => Open::Element(Tag::TableHead),
                        Md::TableRow => Open::Element(Tag::TableRow),
                        Md::TableCell => Open::Element(Tag::TableCell),
                        Md::Link { dest_url, .. } if is_web_address(&dest_url) => {
                            in_link += 1;
                            Open::Link(dest_url.into_string())
                        }
                        Md::Link { .. } => {
                            in_link += 1;
                            Open::Unlinked
                        }
                        // An image is its description: nothing is loaded from a note.
                        Md::Image { .. } => Open::Image,
                        // HTML blocks, footnotes and the rest keep their text in place.
                        _ => Open::Unlinked,
                    };
                    stack.push((open, Vec::new()));
                }
                Event::End(end) => {
                    if matches!(end, TagEnd::Link) {
                        in_link = in_link.saturating_sub(1);
                    }
                    if matches!(end, TagEnd::CodeBlock) {
                        in_code = false;
                    }
                    let (open, children) = stack.pop().expect("every end has its start");
                    let parent = &mut stack.last_mut().expect("the root is never closed").1;
                    match open {
                        Open::Element(tag) => parent.push(Node::Element(tag, children)),
                        Open::Link(href) => parent.push(Node::Link(href, children)),
                        Open::Unlinked | Open::Image => parent.extend(children),
                    }
                }
                Event::Text(text) if in_link == 0 && !in_code => with_bare_links(&text, top),
                Event::Text(text) => top.push(Node::Text(text.into_string())),
                Event::Code(code) => top.push(Node::Element(
                    Tag::Code,
                    vec![Node::Text(code.into_string())],
                )),
                // Raw HTML is shown as the text it is.
                Event::Html(html) | Event::InlineHtml(html) => {
                    top.push(Node::Text(html.into_string()))
                }
                Event::SoftBreak => top.push(Node::Text(" ".into())),
                Event::HardBreak => top.push(Node::LineBreak),
                Event::Rule => top.push(Node::Rule),
                Event::TaskListMarker(done) => top.push(Node::Check(done)),
                Event::FootnoteReference(name) => top.push(Node::Text(format!("[^{name}]"))),
                _ => {}
            }
        }
        let mut root = stack.pop().map(|(_, nodes)| nodes).unwrap_or_default();
        // Unclosed elements cannot happen with pulldown-cmark; anything left is kept.
        for (_, rest) in stack {
            root.extend(rest);
        }
        merge_text(root)
    }

    /// One line (a title): its inline content, without the paragraph around it.
    pub fn inline(source: &str) -> Vec<Node> {
        let mut out = Vec::new();
        for node in parse(source) {
            match node {
                Node::Element(Tag::Paragraph | Tag::Heading(_), children) => {
                    if !out.is_empty() {
                        out.push(Node::Text(" ".into()));
                    }
                    out.extend(children);
                }
                other => out.push(other),
            }
        }
        merge_text(out)
    }

    /// Joins neighbouring text runs, so "a < b" is one run, not three.
    fn merge_text(nodes: Vec<Node>) -> Vec<Node> {
        let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
        for node in nodes {
            let node = match node {
                Node::Element(tag, children) => Node::Element(tag, merge_text(children)),
                Node::Link(href, children) => Node::Link(href, merge_text(children)),
                other => other,
            };
            match (out.last_mut(), node) {
                (Some(Node::Text(before)), Node::Text(next)) => before.push_str(&next),
                (_, node) => out.push(node),
            }
        }
        out
    }
}

#[cfg(feature = "markdown")]
pub use read::{inline, parse};

#[cfg(all(test, feature = "markdown"))]
mod tests;
