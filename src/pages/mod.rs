pub mod command_page;
pub mod connect_page;
pub mod mission_page;
pub mod missions_page;
pub mod not_found_page;
pub mod task_page;
pub mod workspace_page;

use crate::state::connection::{use_connection, Connection};
use leptos::prelude::*;
use leptos_router::components::Redirect;

/// Renders `children` with the connection, or sends the person to the connect screen.
#[component]
pub fn RequireConnection<F, V>(children: F) -> impl IntoView
where
    F: Fn(Connection) -> V + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let connection = use_connection();
    move || match connection.get() {
        Some(c) => children(c).into_any(),
        None => view! { <Redirect path="/connect" /> }.into_any(),
    }
}
