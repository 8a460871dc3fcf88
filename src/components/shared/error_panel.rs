//! A failed load in a panel's place.

use crate::api::ApiError;
use leptos::prelude::*;

/// A failed load: what went wrong, a retry, and a way to reconnect when the key is the
/// problem.
#[component]
pub fn ErrorPanel(error: ApiError, #[prop(into)] on_retry: Callback<()>) -> impl IntoView {
    let reconnect = error.needs_new_key();
    view! {
        <div class="panel-state panel-state--error" role="alert" data-testid="error">
            <p>{error.to_string()}</p>
            <div class="actions">
                <button class="button" on:click=move |_| on_retry.run(())>
                    "Retry"
                </button>
                {reconnect
                    .then(|| {
                        view! {
                            <a href="/connect" class="button button--primary">
                                "Connect again"
                            </a>
                        }
                    })}
            </div>
        </div>
    }
}
