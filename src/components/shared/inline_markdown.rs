//! A title's Markdown: inline marks and links only.

use super::markdown::nodes;
use buildd_core::markdown::inline;
use leptos::prelude::*;

/// One line of Markdown (a title): `code`, emphasis and links, no blocks.
#[component]
pub fn InlineMarkdown(#[prop(into)] source: Signal<String>) -> impl IntoView {
    move || source.with(|s| nodes(inline(s)))
}
