//! A page's guard: it shows once connected, or sends the person to Connect.

use crate::components::shared::loading::Loading;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::hooks::use_location;

/// Renders `children` while connected, once what the server offers is known (so a page
/// never asks for what it lacks), or sends the person to the connect screen.
#[component]
pub fn RequireConnection(children: ChildrenFn) -> impl IntoView {
    let connection = use_connection();
    let offered = use_capabilities();
    // A key from a link is checked on the Connect page before anything uses it.
    let ready = Memo::new(move |_| {
        (
            connection.get().is_some() && !connection.link_waiting(),
            offered.known(),
        )
    });
    let location = use_location();
    move || match ready.get() {
        (true, true) => children().into_any(),
        (true, false) => view! { <Loading label="Connecting…" /> }.into_any(),
        (false, _) => {
            // Connect comes back here once a key is in.
            let here = format!(
                "{}{}",
                location.pathname.get_untracked(),
                location.search.get_untracked()
            );
            let path = match here.as_str() {
                "/" | "" => "/connect".to_string(),
                _ => format!("/connect?next={}", js_sys::encode_uri_component(&here)),
            };
            view! { <Redirect path=path /> }.into_any()
        }
    }
}
