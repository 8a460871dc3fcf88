//! `<CloseActions>`: Close mission, behind a confirmation that warns when work is still
//! open.

use crate::components::mission::confirm::Confirm;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::Mutation;
use buildd_core::client::ClientMission;
use buildd_core::completion::{completion_check, why_not_text};
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn CloseActions(
    mission: Memo<Arc<ClientMission>>,
    /// The confirmation is open.
    confirming: RwSignal<bool>,
    close: Mutation<()>,
    /// Work done, waiting for a person: Close mission is the primary button.
    dormant: Memo<bool>,
) -> impl IntoView {
    let warning = Memo::new(move |_| {
        mission.with(|m| {
            completion_check(&m.tasks).err().map(|why| {
                format!(
                    "{}. Closing now stops its check-ins and leaves that work as it is.",
                    why_not_text(&why)
                )
            })
        })
    });
    move || {
        if confirming.get() {
            view! {
                <Confirm
                    name="close"
                    labelled_by="close-question"
                    confirm="Close mission"
                    working="Closing…"
                    busy=move || close.busy()
                    on_confirm=move |()| close.dispatch(())
                    on_cancel=move |()| confirming.set(false)
                >
                    <p id="close-question">
                        <strong>"Close this mission?"</strong>
                        " It becomes completed and its check-ins stop."
                    </p>
                    {move || {
                        warning
                            .get()
                            .map(|w| {
                                view! {
                                    <p class="notice notice--warn" data-testid="close-warning">
                                        {w}
                                    </p>
                                }
                            })
                    }}
                    <FormError error=move || close.error() />
                </Confirm>
            }
            .into_any()
        } else {
            view! {
                <div class="actions">
                    <button
                        class=move || {
                            if dormant.get() { "button button--primary" } else { "button" }
                        }
                        data-testid="close-mission-button"
                        on:click=move |_| {
                            close.clear();
                            confirming.set(true);
                        }
                    >
                        "Close mission"
                    </button>
                </div>
            }
            .into_any()
        }
    }
}
