//! Markdown drawn as elements from buildd-core's document tree: text is always text, so no
//! HTML written by a person or an agent ever reaches the page, and links go only to web
//! addresses, in a new tab that learns nothing of this one.

use buildd_core::markdown::{parse, Node, Tag};
use leptos::prelude::*;

/// The elements of `list`.
pub(crate) fn nodes(list: Vec<Node>) -> AnyView {
    list.into_iter().map(node).collect_view().into_any()
}

fn node(n: Node) -> AnyView {
    match n {
        Node::Text(t) => t.into_any(),
        Node::LineBreak => view! { <br /> }.into_any(),
        Node::Rule => view! { <hr /> }.into_any(),
        Node::Check(done) => view! {
            <input
                type="checkbox"
                class="md-box"
                disabled=true
                prop:checked=done
                aria-hidden="true"
            />
        }
        .into_any(),
        Node::Link(href, children) => view! {
            <a href=href target="_blank" rel="noopener noreferrer">
                {nodes(children)}
            </a>
        }
        .into_any(),
        Node::Element(tag, children) => element(tag, children),
    }
}

fn element(tag: Tag, children: Vec<Node>) -> AnyView {
    if tag == Tag::TableHead {
        let cells = children
            .into_iter()
            .map(|cell| match cell {
                Node::Element(Tag::TableCell, c) => view! { <th>{nodes(c)}</th> }.into_any(),
                other => node(other),
            })
            .collect_view();
        return view! {
            <thead>
                <tr>{cells}</tr>
            </thead>
        }
        .into_any();
    }
    let is_check = matches!(children.first(), Some(Node::Check(_)));
    let inner = nodes(children);
    match tag {
        Tag::Paragraph => view! { <p>{inner}</p> }.into_any(),
        // Inside a card a document's headings sit below the card's own title.
        Tag::Heading(1) => view! { <h3 class="md-heading">{inner}</h3> }.into_any(),
        Tag::Heading(2) => view! { <h4 class="md-heading">{inner}</h4> }.into_any(),
        Tag::Heading(_) => view! { <h5 class="md-heading">{inner}</h5> }.into_any(),
        Tag::BlockQuote => view! { <blockquote>{inner}</blockquote> }.into_any(),
        Tag::CodeBlock => view! {
            <pre>
                <code>{inner}</code>
            </pre>
        }
        .into_any(),
        Tag::List(Some(start)) => view! { <ol start=start.to_string()>{inner}</ol> }.into_any(),
        Tag::List(None) => view! { <ul>{inner}</ul> }.into_any(),
        Tag::Item if is_check => view! { <li class="md-check">{inner}</li> }.into_any(),
        Tag::Item => view! { <li class="md-bullet">{inner}</li> }.into_any(),
        Tag::Emphasis => view! { <em>{inner}</em> }.into_any(),
        Tag::Strong => view! { <strong>{inner}</strong> }.into_any(),
        Tag::Strikethrough => view! { <del>{inner}</del> }.into_any(),
        Tag::Code => view! { <code>{inner}</code> }.into_any(),
        Tag::Table => view! {
            <div class="md-table">
                <table>{inner}</table>
            </div>
        }
        .into_any(),
        Tag::TableHead => view! { <thead>{inner}</thead> }.into_any(),
        Tag::TableRow => view! { <tr>{inner}</tr> }.into_any(),
        Tag::TableCell => view! { <td>{inner}</td> }.into_any(),
    }
}

/// Drawn again when `source` changes (pass a memo, so only a change does).
#[component]
pub fn Markdown(#[prop(into)] source: Signal<String>) -> impl IntoView {
    view! {
        <div class="markdown" data-testid="markdown">
            {move || source.with(|s| nodes(parse(s)))}
        </div>
    }
}
