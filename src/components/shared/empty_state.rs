//! A panel with nothing to show yet, and what would fill it.

use leptos::prelude::*;

#[component]
pub fn EmptyState(#[prop(into)] title: String, #[prop(into)] detail: String) -> impl IntoView {
    view! {
        <div class="panel-state panel-state--empty" data-testid="empty">
            <p class="panel-state__title">{title}</p>
            <p class="muted">{detail}</p>
        </div>
    }
}
