//! Connect to a Buildd API: its URL (this page's origin by default) and an API key. The key
//! is checked before it is kept, a link's too: a refused key, an unreachable server, a call
//! the browser refused to another origin and a key that may only read are told apart.

use crate::api::Connection;
use crate::components::shared::form_error::FormError;
use crate::state::connect_check::{check_key, limited_notice, why_not, KeyCheck};
use crate::state::connection::{normalize_base, use_connection};
use crate::state::mutation::Mutation;
use crate::state::title::page_title;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn ConnectPage() -> impl IntoView {
    page_title(|| Some("Connect".into()));
    let connection = use_connection();
    let current = connection.get_untracked();
    let base = RwSignal::new(current.as_ref().map(|c| c.base.clone()).unwrap_or_default());
    let key = RwSignal::new(String::new());
    // Set when the key connected but may only read: said here before going on.
    let limited = RwSignal::new(None::<(String, String)>);
    // A key is checked before it is kept: (the connection, where to go then).
    let check = Mutation::<_, (), String>::new(move |(candidate, then): &(Connection, String)| {
        let (candidate, then) = (candidate.clone(), then.clone());
        async move {
            let verdict = check_key(candidate.clone())
                .await
                .map_err(|e| why_not(&candidate, &e))?;
            connection.connect(candidate);
            match verdict {
                KeyCheck::Admin => open_fresh(&then),
                KeyCheck::Limited(level) => limited.set(Some((limited_notice(&level), then))),
            }
            Ok(())
        }
    });
    let start = move |candidate: Connection, then: String| {
        limited.set(None);
        check.dispatch((candidate, then));
    };
    // Where the person was going when Connect was shown: only a path of this app.
    let next = use_query_map()
        .with_untracked(|q| q.get("next"))
        .filter(|p| p.starts_with('/') && !p.starts_with("//") && !p.contains('\\'))
        .unwrap_or_else(|| "/".into());
    // A link's key: shown in the form and checked at once.
    if let Some((candidate, then)) = connection.take_link() {
        base.set(candidate.base.clone());
        key.set(candidate.key.clone());
        start(candidate, then);
    }
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
        start(candidate, next.clone());
    };

    view! {
        <section class="page page--narrow">
            <h1>"Connect to Buildd"</h1>
            <p class="muted">
                "Mission Control reads and steers missions through Buildd's API. "
                "Use an admin-level API key of your team; it stays in this browser."
            </p>
            {move || {
                connection
                    .rejected_by()
                    .map(|server| {
                        view! {
                            <p class="notice notice--warn" role="alert" data-testid="key-rejected">
                                {rejected(&server)}
                            </p>
                        }
                    })
            }}
            <form class="card form" on:submit=submit data-testid="connect-form">
                <label class="field">
                    <span class="field__label">"API URL"</span>
                    <input
                        type="url"
                        data-testid="base-input"
                        name="base"
                        placeholder="Same server as this page"
                        prop:value=move || base.get()
                        on:input=move |ev| base.set(event_target_value(&ev))
                    />
                    <span class="field__hint">
                        "Leave empty to use the server that serves this page."
                    </span>
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
                    limited
                        .get()
                        .map(|(notice, then)| {
                            view! {
                                <div
                                    class="notice notice--warn"
                                    role="status"
                                    data-testid="connect-limited"
                                >
                                    <p>{notice}</p>
                                    <a href=then class="button">
                                        "Continue"
                                    </a>
                                </div>
                            }
                        })
                }}
                <FormError error=move || check.error() testid="connect-error" />
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

/// Why the stored key is gone.
fn rejected(server: &str) -> String {
    format!(
        "{server} rejected the stored API key (401 Unauthorized), so it was forgotten. Paste a \
         valid key to go on."
    )
}

/// Loads `path` afresh once connected, so every page and the board start from the new
/// connection as on a later visit.
fn open_fresh(path: &str) {
    let _ = window().location().assign(path);
}
