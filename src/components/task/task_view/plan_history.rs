//! `<PlanHistory>`: a revision's earlier plans, once they are read.

use crate::components::shared::polled::Polled;
use crate::components::task::revision_history::history::{History, Replaces};
use crate::components::task::revision_history::RevisionHistory;
use crate::state::refresh::PolledRead;
use leptos::prelude::*;

/// Nothing for a plan that revises none.
#[component]
pub fn PlanHistory(
    replaces: Memo<Option<Replaces>>,
    history: PolledRead<Option<History>>,
) -> impl IntoView {
    move || {
        replaces.with(Option::is_some).then(|| {
            view! {
                <Polled read=history loading="Reading the earlier revisions…" let:found>
                    {move || {
                        found
                            .with(|h| h.is_some())
                            .then(|| {
                                let history = Memo::new(move |_| {
                                    found.with(|h| (**h).clone().unwrap_or_default())
                                });
                                view! { <RevisionHistory history /> }
                            })
                    }}
                </Polled>
            }
        })
    }
}
