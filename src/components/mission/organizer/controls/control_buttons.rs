//! `<ControlButtons>`: Run for an active mission, pause or resume, and switching mode.

use super::run_note::Note;
use crate::state::mutation::Mutation;
use leptos::prelude::*;

#[component]
pub fn ControlButtons(
    act: Mutation<&'static str, Note, Note>,
    manual: Memo<bool>,
    active: Memo<bool>,
    paused: Memo<bool>,
) -> impl IntoView {
    let busy = move || act.busy();
    view! {
        <div class="actions">
            {move || {
                active
                    .get()
                    .then(|| {
                        view! {
                            <button
                                class="button button--primary"
                                data-testid="run-organizer"
                                prop:disabled=busy
                                on:click=move |_| act.dispatch("run")
                            >
                                {move || if busy() { "Working…" } else { "Run" }}
                            </button>
                        }
                    })
            }}
            {move || {
                (active.get() || paused.get())
                    .then(|| {
                        view! {
                            <button
                                class="button"
                                data-testid="pause-resume"
                                prop:disabled=busy
                                on:click=move |_| {
                                    act.dispatch(
                                        if paused.get_untracked() { "resume" } else { "pause" },
                                    )
                                }
                            >
                                {move || if paused.get() { "Resume" } else { "Pause" }}
                            </button>
                        }
                    })
            }}
            <button
                class="button button--ghost"
                data-testid="switch-mode"
                prop:disabled=busy
                on:click=move |_| {
                    act.dispatch(if manual.get_untracked() { "auto" } else { "manual" })
                }
            >
                {move || if manual.get() { "Switch to auto" } else { "Switch to manual" }}
            </button>
        </div>
    }
}
