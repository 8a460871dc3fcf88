//! The router and the app-wide contexts (connection, what its API offers, its change
//! stream, theme, the board of what waits on you).

use crate::components::shared::app_header::AppHeader;
use crate::components::shared::require_connection::RequireConnection;
use crate::pages::command_page::CommandPage;
use crate::pages::lazy_routes::Page;
use crate::pages::not_found_page::NotFoundPage;
use crate::state::board::provide_board;
use crate::state::capabilities::provide_capabilities;
use crate::state::connection::provide_connection;
use crate::state::first_screen::provide_first_screen;
use crate::state::live::provide_live;
use crate::state::theme::provide_theme;
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

#[component]
pub fn App() -> impl IntoView {
    provide_theme();
    provide_connection();
    provide_capabilities();
    provide_first_screen();
    provide_live();
    provide_board();
    view! {
        <Router>
            <AppHeader />
            <main class="main">
                <Routes fallback=|| view! { <NotFoundPage /> }>
                    <Route
                        path=path!("/")
                        view=|| {
                            view! {
                                <RequireConnection>
                                    <CommandPage />
                                </RequireConnection>
                            }
                        }
                    />
                    <Route path=path!("/missions") view=Page::Missions />
                    <Route path=path!("/activity") view=Page::Activity />
                    <Route path=path!("/insights") view=Page::Insights />
                    <Route path=path!("/connect") view=Page::Connect />
                    <Route path=path!("/missions/:id") view=Page::Mission />
                    <Route path=path!("/tasks/:id") view=Page::Task />
                    <Route path=path!("/workspaces") view=Page::Workspaces />
                    <Route path=path!("/workspaces/:id") view=Page::Workspace />
                </Routes>
            </main>
        </Router>
    }
}
