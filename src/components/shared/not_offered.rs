//! A panel's place when the server does not provide what it shows: one calm line, not an
//! error, since nothing failed and retrying would not help.

use leptos::prelude::*;

#[component]
pub fn NotOffered(#[prop(into)] text: String) -> impl IntoView {
    view! {
        <p class="muted" data-testid="not-offered">
            {text}
        </p>
    }
}
