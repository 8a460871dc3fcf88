//! `<StatusButtons>`: a button for each status change offered, with what it does.

use super::offered::offered;
use crate::state::mutation::Mutation;
use buildd_core::MissionStatus;
use leptos::prelude::*;

#[component]
pub fn StatusButtons(
    status: Memo<MissionStatus>,
    /// Sends the status chosen.
    move_to: Mutation<&'static str>,
    /// Cleared on a change of status: each change clears the other's outcome.
    review: Mutation<bool, bool>,
    busy: Signal<bool>,
) -> impl IntoView {
    move || {
        offered(&status.get())
            .into_iter()
            .map(|(label, testid, to, why)| {
                view! {
                    <li>
                        <button
                            class="button"
                            data-testid=testid
                            prop:disabled=busy
                            on:click=move |_| {
                                review.clear();
                                move_to.dispatch(to);
                            }
                        >
                            {label}
                        </button>
                        " "
                        <span class="muted small">{why}</span>
                    </li>
                }
            })
            .collect_view()
    }
}
