//! Markdown rendered as elements from buildd-core's parser: text is always text, so no HTML
//! written by a person or an agent ever reaches the page.

use buildd_core::markdown::{parse, Block, Inline};
use leptos::prelude::*;

fn inline(runs: Vec<Inline>) -> impl IntoView {
    runs.into_iter()
        .map(|run| match run {
            Inline::Text(t) => view! { <span>{t}</span> }.into_any(),
            Inline::Code(c) => view! { <code>{c}</code> }.into_any(),
            Inline::Bold(b) => view! { <strong>{b}</strong> }.into_any(),
            Inline::Link(url) => {
                let text = url.clone();
                view! { <a href=url target="_blank" rel="noopener noreferrer">{text}</a> }
                    .into_any()
            }
        })
        .collect_view()
}

/// One line of Markdown (a title): `code`, **bold** and links, no blocks.
#[component]
pub fn InlineMarkdown(#[prop(into)] source: String) -> impl IntoView {
    inline(buildd_core::markdown::inline(&source))
}

#[component]
pub fn Markdown(#[prop(into)] source: String) -> impl IntoView {
    let blocks = parse(&source)
        .into_iter()
        .map(|block| match block {
            Block::Heading(_, text) => {
                view! { <h3 class="md-heading">{inline(text)}</h3> }.into_any()
            }
            Block::Paragraph(text) => view! { <p>{inline(text)}</p> }.into_any(),
            Block::Item {
                checked: Some(done),
                text,
            } => view! {
                <li class="md-check">
                    <input type="checkbox" disabled=true prop:checked=done aria-hidden="true" />
                    <span>{inline(text)}</span>
                </li>
            }
            .into_any(),
            Block::Item {
                checked: None,
                text,
            } => view! { <li class="md-bullet">{inline(text)}</li> }.into_any(),
        })
        .collect_view();
    view! { <div class="markdown" data-testid="markdown">{blocks}</div> }
}
