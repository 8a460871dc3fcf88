//! One file a route: each page loads its data through `state` and lays out `components`;
//! `RequireConnection` sends a tab with no connection to Connect.

mod command_keys;
pub mod command_page;
mod connect_page;
pub mod lazy_routes;
mod mission_page;
mod missions_page;
pub mod not_found_page;
mod task_page;
mod workspace_page;
mod workspaces_page;

use crate::api::ApiError;
use crate::components::panel::Loading;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::{use_connection, Connection};
use crate::state::first_screen::use_first_screen;
use crate::state::refresh::{polled, Polled};
use crate::state::request::with_connection;
use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::hooks::{use_location, use_params_map};
use std::future::Future;

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

/// The route's `:id`.
fn route_id() -> Memo<String> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get("id")).unwrap_or_default())
}

/// [`polled`] for what `read` reads of the page's `id`, read again when the id changes.
fn polled_by_id<T, Fut>(
    id: Memo<String>,
    read: impl Fn(Connection, String) -> Fut + Copy + 'static,
) -> (Polled<T>, Callback<()>)
where
    T: Clone + PartialEq + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let connection = use_connection();
    polled(move || {
        let id = id.get();
        with_connection(&connection, move |c| read(c, id))
    })
}

/// Marks the first screen drawn once `data`, the page's main read, has its first answer:
/// what waits for it then loads without competing with the page.
fn first_screen_once<T: Clone + Send + Sync + 'static>(data: Polled<T>) {
    let first = use_first_screen();
    Effect::new(move |_| {
        if data.with(Option::is_some) {
            first.drawn();
        }
    });
}
