//! One file a route: each page loads its data through `state` and lays out `components`.
//! Every page but Connect shows once connected (`RequireConnection`, at the route).

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
use crate::state::connection::{use_connection, Connection};
use crate::state::first_screen::use_first_screen;
use crate::state::refresh::{polled, Polled};
use crate::state::request::with_connection;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use std::future::Future;

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
