//! The command center's keys, listed for whoever presses `?` or the button beside the title.

use leptos::prelude::*;

const KEYS: [(&str, &str); 6] = [
    ("j / k", "Select the next or previous mission"),
    ("Enter", "Open the selected mission"),
    (
        "a",
        "Open the selected mission's plan in review, to approve it",
    ),
    ("r", "Open that plan with the feedback box, to send it back"),
    ("?", "Show or hide these keys"),
    ("Esc", "Hide them"),
];

#[component]
pub fn Shortcuts(shown: RwSignal<bool>) -> impl IntoView {
    view! {
        <button
            class="button button--ghost button--small"
            data-testid="show-shortcuts"
            aria-expanded=move || shown.get().to_string()
            aria-controls="shortcuts"
            on:click=move |_| shown.update(|s| *s = !*s)
        >
            "Keyboard shortcuts "
            <kbd>"?"</kbd>
        </button>
        {move || {
            shown
                .get()
                .then(|| {
                    view! {
                        <section
                            class="card shortcuts"
                            id="shortcuts"
                            data-testid="shortcuts"
                            aria-label="Keyboard shortcuts"
                        >
                            <dl class="facts">
                                {KEYS
                                    .iter()
                                    .map(|(key, what)| {
                                        view! {
                                            <div class="facts__row">
                                                <dt>
                                                    <kbd>{*key}</kbd>
                                                </dt>
                                                <dd>{*what}</dd>
                                            </div>
                                        }
                                    })
                                    .collect_view()}
                            </dl>
                        </section>
                    }
                })
        }}
    }
}
