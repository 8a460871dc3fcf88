//! One file a route: each page loads its data through `state` and lays out `components`.
//! Every page but Connect shows once connected (`RequireConnection`, at the route).

mod activity_page;
pub mod command_page;
mod connect_page;
mod insights_page;
pub mod lazy_routes;
mod mission_page;
mod missions_page;
pub mod not_found_page;
mod task_page;
mod workspace_page;
mod workspaces_page;

use crate::api::{ApiError, Connection};
use crate::state::connection::use_connection;
use crate::state::first_screen::use_first_screen;
use crate::state::refresh::{polled, PolledRead};
use crate::state::request::settle;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use std::future::Future;

/// The route's `:id`.
fn route_id() -> Memo<String> {
    let params = use_params_map();
    Memo::new(move |_| params.with(|p| p.get("id")).unwrap_or_default())
}

/// A page of the route's `:id`, made again for another id on the same route, so its reads
/// and what a person typed start afresh.
fn for_route_id<V: IntoView + 'static>(
    page: impl Fn(String) -> V + Send + 'static,
) -> impl IntoView {
    let id = route_id();
    move || {
        let id = id.get();
        untrack(|| page(id))
    }
}

/// [`polled`] for what `read` reads with this tab's connection.
fn polled_api<T, Fut>(read: impl Fn(Connection) -> Fut + 'static) -> PolledRead<T>
where
    T: PartialEq + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let connection = use_connection();
    polled(move || settle(connection, connection.get_untracked().map(&read)))
}

/// [`polled_api`] for what `read` reads of `id`.
fn polled_by_id<T, Fut>(
    id: &str,
    read: impl Fn(Connection, String) -> Fut + 'static,
) -> PolledRead<T>
where
    T: PartialEq + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + 'static,
{
    let id = id.to_string();
    polled_api(move |c| read(c, id.clone()))
}

/// Marks the first screen drawn once `read`, the page's main read, has its first answer:
/// what waits for it then loads without competing with the page.
fn first_screen_once<T: Send + Sync + 'static>(read: PolledRead<T>) {
    let first = use_first_screen();
    Effect::new(move |_| {
        if read.answered() {
            first.drawn();
        }
    });
}
