//! `<WordDiff>`: a step's description changed word by word, as `<ins>` and `<del>` with
//! their kind said for screen readers, never by colour alone.

use buildd_core::word_diff::WordSegment;
use leptos::prelude::*;

/// The words of a changed description, insertions and deletions marked in words too.
#[component]
pub fn WordDiff(segments: Vec<WordSegment>) -> impl IntoView {
    segments
        .into_iter()
        .map(|s| match s {
            WordSegment::Same(t) => view! { <span>{t}</span> }.into_any(),
            WordSegment::Added(t) => view! {
                <ins>
                    <span class="sr-only">"[added: "</span>
                    {t}
                    <span class="sr-only">"]"</span>
                </ins>
            }
            .into_any(),
            WordSegment::Removed(t) => view! {
                <del>
                    <span class="sr-only">"[removed: "</span>
                    {t}
                    <span class="sr-only">"]"</span>
                </del>
            }
            .into_any(),
        })
        .enumerate()
        .map(|(i, v)| {
            view! {
                {(i > 0).then_some(" ")}
                {v}
            }
        })
        .collect_view()
}
