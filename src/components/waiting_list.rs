//! The items of "Waiting on you", each with its action. A chunk of its own in the split
//! build (`lazy`): the actions and their writes are fetched once the first rows show.

use crate::components::waiting_item::WaitingItem;
use buildd_core::command_center::WaitItem;
use leptos::prelude::*;

#[cfg_attr(feature = "lazy", leptos::lazy)]
pub async fn waiting_list(waiting: Memo<Option<Vec<WaitItem>>>, refresh: Callback<()>) -> AnyView {
    // Keyed, so a refresh keeps a row (and the feedback typed in it) that still waits.
    view! {
        <ol class="waiting">
            <For
                each=move || waiting.get().unwrap_or_default()
                key=|i: &WaitItem| (i.kind, i.href.clone())
                children=move |i| view! { <WaitingItem item=i refresh=refresh /> }
            />
        </ol>
    }
    .into_any()
}
