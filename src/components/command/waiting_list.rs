//! The items of "Waiting on you", each with its action. In the split build (`lazy`) they
//! are part of the chunk fetched once the first rows show, with the actions' writes.

use super::waiting_item::WaitingItem;
use crate::api::ApiError;
use crate::state::first_screen::{split_off, Later};
use buildd_core::command_center::WaitItem;
use leptos::prelude::*;

split_off!(
    after_first_rows,
    AnyView,
    pub fn waiting_list(
        waiting: Memo<Option<Vec<WaitItem>>>,
        refresh: Callback<()>,
    ) -> Later<Result<AnyView, ApiError>> {
        Box::pin(async move {
            // Keyed, so a refresh keeps a row (and the feedback typed in it) that still waits.
            Ok(view! {
                <ol class="waiting">
                    <For
                        each=move || waiting.get().unwrap_or_default()
                        key=|i: &WaitItem| (i.kind, i.subject.clone())
                        children=move |i| view! { <WaitingItem item=i refresh=refresh /> }
                    />
                </ol>
            }
            .into_any())
        })
    }
);
