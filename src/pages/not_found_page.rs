use leptos::prelude::*;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! {
        <section class="page" data-testid="not-found">
            <h1>"Page not found"</h1>
            <p>"Nothing lives at this address. " <a href="/">"Back to the command center"</a></p>
        </section>
    }
}
