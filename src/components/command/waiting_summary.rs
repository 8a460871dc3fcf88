//! "Waiting on you" in one line for a narrow window, above the rows: how many things wait
//! and the first of them, leading to the whole list below the rows. Its place is kept from
//! the first rows on (style/), so nothing moves when it fills in.

use crate::api::ApiError;
use crate::state::first_screen::{split_off, Later};
use buildd_core::command_center::WaitItem;
use leptos::prelude::*;

/// The list's heading: with how many things wait, once that is known.
pub fn heading(count: Option<usize>) -> String {
    match count {
        Some(n) => format!("Waiting on you ({n})"),
        None => "Waiting on you".into(),
    }
}

split_off!(
    after_first_rows,
    AnyView,
    /// Part of the chunk that brings the list: the count is 0 until that is in.
    pub fn waiting_summary(
        waiting: ReadSignal<Option<Vec<WaitItem>>>,
    ) -> Later<Result<AnyView, ApiError>> {
        let count = move || waiting.with(|w| w.as_ref().map(Vec::len));
        let first =
            move || waiting.with(|w| w.as_ref().and_then(|w| w.first()).map(|i| i.title.clone()));
        Box::pin(async move {
            Ok(view! {
                <a href="#waiting-on-you" class="command-center__summary-count">
                    {move || heading(count())}
                </a>
                <span class="command-center__summary-first" data-testid="waiting-summary-first">
                    {move || match (count(), first()) {
                        (_, Some(title)) => title,
                        (Some(_), None) => "Nothing needs you right now.".into(),
                        (None, None) => String::new(),
                    }}
                </span>
            }
            .into_any())
        })
    }
);
