//! Connect to a Buildd API: its URL (this page's origin by default) and an API key.

use crate::api::{self, ApiError};
use crate::state::connection::{normalize_base, use_connection, Connection};
use crate::state::write::Write;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

#[component]
pub fn ConnectPage() -> impl IntoView {
    let connection = use_connection();
    let current = connection.get_untracked();
    let base = RwSignal::new(current.as_ref().map(|c| c.base.clone()).unwrap_or_default());
    let key = RwSignal::new(String::new());
    let check: Write = Write::new();
    let navigate = use_navigate();

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let candidate = Connection {
            base: normalize_base(&base.get_untracked()),
            key: key.get_untracked().trim().to_string(),
        };
        if candidate.key.is_empty() {
            check.fail("Paste an API key (it starts with bld_).".into());
            return;
        }
        let (navigate, probe) = (navigate.clone(), candidate.clone());
        // Reading the mission list proves the URL and the key both work.
        check.run(
            async move { api::missions(&probe).await },
            ApiError::to_string,
            move |_| {
                connection.connect(candidate);
                navigate("/", Default::default());
            },
        );
    };

    view! {
        <section class="page page--narrow">
            <h1>"Connect to Buildd"</h1>
            <p class="muted">
                "Mission Control reads and steers missions through Buildd's API. "
                "Use an admin-level API key of your team; it stays in this browser."
            </p>
            <form class="card form" on:submit=submit data-testid="connect-form">
                <label class="field">
                    <span class="field__label">"API URL"</span>
                    <input
                        type="url"
                        name="base"
                        placeholder="Same server as this page"
                        prop:value=move || base.get()
                        on:input=move |ev| base.set(event_target_value(&ev))
                    />
                    <span class="field__hint">"Leave empty to use the server that serves this page."</span>
                </label>
                <label class="field">
                    <span class="field__label">"API key"</span>
                    <input
                        type="password"
                        name="key"
                        autocomplete="off"
                        placeholder="bld_…"
                        prop:value=move || key.get()
                        on:input=move |ev| key.set(event_target_value(&ev))
                        data-testid="key-input"
                    />
                </label>
                {move || {
                    check
                        .error()
                        .map(|e| {
                            view! {
                                <p class="form__error" role="alert" data-testid="connect-error">
                                    {e}
                                </p>
                            }
                        })
                }}
                <div class="actions">
                    <button
                        class="button button--primary"
                        type="submit"
                        prop:disabled=move || check.busy()
                        data-testid="connect-submit"
                    >
                        {move || if check.busy() { "Connecting…" } else { "Connect" }}
                    </button>
                </div>
            </form>
        </section>
    }
}
