//! `<GuidanceForm>`: guidance a person sends to all of a mission's agents.

use crate::components::shared::form_error::FormError;
use crate::state::mutation::Mutation;
use buildd_core::note::MissionNote;
use leptos::prelude::*;

#[component]
pub fn GuidanceForm(
    /// The text typed; it stays when sending fails.
    guidance: RwSignal<String>,
    send: Mutation<String, MissionNote>,
    /// Guidance or a reply is on its way: one note goes out at a time.
    busy: Signal<bool>,
) -> impl IntoView {
    let on_send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = guidance.get_untracked().trim().to_string();
        if !text.is_empty() {
            send.dispatch(text);
        }
    };
    view! {
        <form class="form feed__composer" on:submit=on_send>
            <label for="guidance" class="sr-only">
                "Guidance for the agents"
            </label>
            <input
                id="guidance"
                placeholder="Send guidance to all agents..."
                data-testid="guidance-input"
                prop:value=guidance
                on:input=move |ev| guidance.set(event_target_value(&ev))
            />
            <FormError error=move || send.error() testid="guidance-error" />
            <div class="actions">
                <button
                    class="button button--primary"
                    type="submit"
                    data-testid="send-guidance"
                    prop:disabled=move || busy.get() || guidance.with(|g| g.trim().is_empty())
                >
                    "Send"
                </button>
            </div>
        </form>
    }
}
