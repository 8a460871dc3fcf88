//! The items of "Waiting on you", each with its action, and the work running now. In the split build (`lazy`) they
//! are part of the chunk fetched once the first rows show, with the actions' writes.

use super::running_now::RunningNow;
use super::waiting_item::WaitingItem;
use crate::api::ApiError;
use crate::components::shared::not_offered::NotOffered;
use crate::state::board::Extras;
use crate::state::first_screen::{split_off, Later};
use crate::state::refresh::PolledRead;
use crate::state::rows::{positions, row_at};
use buildd_core::command_center::{WaitItem, WaitKind};
use leptos::prelude::*;

split_off!(
    after_first_rows,
    AnyView,
    /// What waits, and what this server does not say (`extras`): said once, above the list,
    /// so a shorter list is not taken for less waiting on you.
    pub fn waiting_list(
        waiting: ReadSignal<Option<Vec<WaitItem>>>,
        extras: PolledRead<Extras>,
        refresh: Callback<()>,
    ) -> Later<Result<AnyView, ApiError>> {
        let not_provided = move || {
            extras
                .with_data(Extras::not_provided)
                .flatten()
                .map(|parts| view! { <NotOffered text=parts /> })
        };
        let nothing = move || {
            waiting
                .with(|w| w.as_ref().is_some_and(Vec::is_empty))
                .then(|| view! { <p class="muted">"Nothing needs you right now."</p> })
        };
        // Keyed, so a refresh keeps an item (and the feedback typed in it) that still waits.
        let keys = move || {
            waiting.with(|w| {
                w.iter()
                    .flatten()
                    .map(|i| (i.kind, i.subject.clone()))
                    .collect::<Vec<_>>()
            })
        };
        let at = positions(keys);
        let item = move |key: (WaitKind, String)| {
            row_at(at, key, move |i| {
                waiting.with(|w| w.as_ref().and_then(|w| w.get(i)).cloned())
            })
        };
        Box::pin(async move {
            Ok(view! {
                {not_provided}
                {nothing}
                <ol class="waiting">
                    <For each=keys key=Clone::clone let:key>
                        <WaitingItem item=item(key) refresh />
                    </For>
                </ol>
                <RunningNow />
            }
            .into_any())
        })
    }
);
