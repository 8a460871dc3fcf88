//! `<CheckedSaveTail>`: the end of an Organizer form whose save is read back
//! ([`checked_save`](super::unstored_notice::checked_save)): why it failed, what was not
//! stored, then Save and Cancel.

use super::unstored_notice::{Unstored, UnstoredNotice};
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::Mutation;
use buildd_core::requests::missions::MissionPatch;
use leptos::prelude::*;

#[component]
pub fn CheckedSaveTail<S: Clone + 'static>(
    save: Mutation<(MissionPatch, S, bool)>,
    /// What the form sets, as the unstored notice names it.
    what: &'static str,
    unstored: RwSignal<Unstored>,
    /// Saves again with check-ins turned on.
    turn_on: Callback<()>,
    error_testid: &'static str,
    save_testid: &'static str,
    #[prop(optional)] cancel_testid: Option<&'static str>,
    /// Closes the form; Cancel also forgets the last outcome.
    close: Callback<()>,
    /// More buttons after Cancel.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    view! {
        <FormError error=move || save.error() testid=error_testid />
        <UnstoredNotice what state=unstored busy=Signal::derive(move || save.busy()) turn_on />
        <FormActions
            save_testid
            busy=move || save.busy()
            working="Saving…"
            cancel_testid=cancel_testid
            on_cancel=move |_| {
                close.run(());
                save.clear();
                unstored.set(Unstored::No);
            }
        >
            {children.map(|c| c())}
        </FormActions>
    }
}
