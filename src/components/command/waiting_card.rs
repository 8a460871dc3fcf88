//! "Waiting on you": its count, the PRs' and questions' refusal, and the list, whose code
//! comes once the first rows show (a chunk of its own).

use super::waiting_list::waiting_list;
use super::waiting_summary::heading;
use crate::components::shared::error_panel::ErrorPanel;
use crate::state::board::BoardState;
use crate::state::first_screen::FirstScreen;
use leptos::prelude::*;
use send_wrapper::SendWrapper;

#[component]
pub fn WaitingCard(board: BoardState, first: FirstScreen) -> impl IntoView {
    let BoardState {
        missions,
        extras,
        retry,
        waiting,
        ..
    } = board;
    // The PRs' and questions' refusal, when the missions themselves were read.
    let extras_error = Memo::new(move |_| {
        missions.with_data(|_| ())?;
        extras.value.with(|e| e.as_ref()?.as_ref().err().cloned())
    });
    // The list's code and the PRs' and questions' reading are one chunk: when it did not
    // load, the card shows the reading's error and Retry, and the list is tried again once
    // the reading succeeds.
    let list_failed = RwSignal::new(false);
    let attempt = RwSignal::new(0u32);
    Effect::new(move |_| {
        if list_failed.get() && extras.with_data(|_| ()).is_some() {
            list_failed.set(false);
            attempt.update(|a| *a += 1);
        }
    });
    view! {
        <section
            class="card command-center__waiting"
            id="waiting-on-you"
            data-testid="waiting-on-you"
        >
            <h2 class="card__title">
                {move || heading(waiting.with(|w| w.as_ref().map(Vec::len)))}
            </h2>
            {move || {
                extras_error.get().map(|e| view! { <ErrorPanel error=e on_retry=retry /> })
            }}
            {move || {
                attempt.track();
                Suspend::new(
                    SendWrapper::new(async move {
                        first.shown().await;
                        waiting_list(waiting, extras, retry)
                            .await
                            .unwrap_or_else(|_| {
                                list_failed.set(true);
                                ().into_any()
                            })
                    }),
                )
            }}
        </section>
    }
}
