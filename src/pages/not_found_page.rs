use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! {
        <section class="page">
            <h1>"Page not found"</h1>
            <p>
                "Nothing lives at this address. " <A href="/">"Back to the command center"</A>
            </p>
        </section>
    }
}
