use super::*;

fn text(s: &str) -> Node {
    Node::Text(s.into())
}

fn el(tag: Tag, children: Vec<Node>) -> Node {
    Node::Element(tag, children)
}

/// Every text of a tree, in order, and whether any link points outside the web.
fn texts(nodes: &[Node], out: &mut String) {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Element(_, c) => texts(c, out),
            Node::Link(href, c) => {
                assert!(is_web_address(href), "a link to {href}");
                texts(c, out);
            }
            _ => {}
        }
    }
}

#[test]
fn checklists_bullets_headings_and_paragraphs() {
    let doc = parse("## Daily\n- [ ] API p99\n- [x] Error rate\n* plain\n\nSome\nwords");
    assert_eq!(
        doc,
        vec![
            el(Tag::Heading(2), vec![text("Daily")]),
            el(
                Tag::List(None),
                vec![
                    el(Tag::Item, vec![Node::Check(false), text("API p99")]),
                    el(Tag::Item, vec![Node::Check(true), text("Error rate")]),
                ]
            ),
            el(Tag::List(None), vec![el(Tag::Item, vec![text("plain")])]),
            el(Tag::Paragraph, vec![text("Some words")]),
        ]
    );
}

#[test]
fn links_emphasis_numbered_and_nested_lists_code_and_tables() {
    let doc = parse(
        "See [the spec](https://example.com/spec) and *this*, ~~not that~~.\n\n\
         1. first\n   - nested\n2. second\n\n```rust\nlet a = \"https://x.io\";\n```\n\n\
         | step | state |\n| --- | --- |\n| build | **green** |\n",
    );
    assert_eq!(
        doc[0],
        el(
            Tag::Paragraph,
            vec![
                text("See "),
                Node::Link("https://example.com/spec".into(), vec![text("the spec")]),
                text(" and "),
                el(Tag::Emphasis, vec![text("this")]),
                text(", "),
                el(Tag::Strikethrough, vec![text("not that")]),
                text("."),
            ]
        )
    );
    let Node::Element(Tag::List(Some(1)), items) = &doc[1] else {
        panic!("{:?}", doc[1]);
    };
    assert_eq!(items.len(), 2);
    assert!(matches!(&items[0], Node::Element(Tag::Item, c)
        if c.iter().any(|n| matches!(n, Node::Element(Tag::List(None), _)))));
    // Inside code an address is code, never a link.
    assert_eq!(
        doc[2],
        el(Tag::CodeBlock, vec![text("let a = \"https://x.io\";\n")])
    );
    let Node::Element(Tag::Table, rows) = &doc[3] else {
        panic!("{:?}", doc[3]);
    };
    assert!(matches!(&rows[0], Node::Element(Tag::TableHead, _)));
    let mut all = String::new();
    texts(rows, &mut all);
    assert_eq!(all, "stepstatebuildgreen");
}

#[test]
fn html_scripts_and_foreign_links_stay_text() {
    let cases = [
        "<script>alert(1)</script>",
        "<div onclick=\"steal()\">x</div>",
        "a <img src=x onerror=alert(1)> b",
        "[click](javascript:alert(1))",
        "<javascript:alert(1)>",
        "[data](data:text/html;base64,PHNjcmlwdD4=)",
        "![pixel](https://tracker.example/p.gif)",
    ];
    for case in cases {
        let doc = parse(case);
        let mut shown = String::new();
        texts(&doc, &mut shown);
        let no_links = |nodes: &[Node]| -> bool {
            fn any_link(nodes: &[Node]) -> bool {
                nodes.iter().any(|n| match n {
                    Node::Link(..) => true,
                    Node::Element(_, c) => any_link(c),
                    _ => false,
                })
            }
            !any_link(nodes)
        };
        assert!(no_links(&doc), "{case}: {doc:?}");
        assert!(!shown.is_empty(), "{case} shows nothing");
    }
    // The HTML is shown as written.
    let mut shown = String::new();
    texts(&parse("<script>alert(1)</script>"), &mut shown);
    assert!(shown.contains("<script>alert(1)</script>"), "{shown}");
    // An image is its description, not a request.
    assert_eq!(
        parse("![pixel](https://tracker.example/p.gif)"),
        vec![el(Tag::Paragraph, vec![text("pixel")])]
    );
}

#[test]
fn bare_web_addresses_become_links_and_nothing_else_does() {
    assert_eq!(
        inline("see https://example.com/spec?a=1. Or (http://x.io/p), then **done**"),
        vec![
            text("see "),
            Node::Link(
                "https://example.com/spec?a=1".into(),
                vec![text("https://example.com/spec?a=1")]
            ),
            text(". Or ("),
            Node::Link("http://x.io/p".into(), vec![text("http://x.io/p")]),
            text("), then "),
            el(Tag::Strong, vec![text("done")]),
        ]
    );
    assert_eq!(
        inline("javascript:alert(1) xhttps://a.b https:// ftp://f.io"),
        vec![text("javascript:alert(1) xhttps://a.b https:// ftp://f.io")]
    );
    assert_eq!(
        inline("`https://a.io`"),
        vec![el(Tag::Code, vec![text("https://a.io")])]
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
}

#[test]
fn a_title_is_its_inline_content() {
    assert_eq!(
        inline("Fix `login` **now**"),
        vec![
            text("Fix "),
            el(Tag::Code, vec![text("login")]),
            text(" "),
            el(Tag::Strong, vec![text("now")]),
        ]
    );
    assert_eq!(
        inline("# not a heading in a title"),
        vec![text("not a heading in a title")]
    );
}
