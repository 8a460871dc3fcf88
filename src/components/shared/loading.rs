//! A panel's place while its data is on its way.

use leptos::prelude::*;

#[component]
pub fn Loading(#[prop(into)] label: String) -> impl IntoView {
    view! {
        <div class="panel-state" role="status" aria-live="polite" data-testid="loading">
            <span class="spinner" aria-hidden="true"></span>
            {label}
        </div>
    }
}
