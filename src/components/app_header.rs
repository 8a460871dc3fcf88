use crate::state::board::use_board;
use crate::state::connection::use_connection;
use crate::state::theme::{use_theme, Theme};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

#[component]
pub fn AppHeader() -> impl IntoView {
    let connection = use_connection();
    let theme = use_theme();
    let waiting = use_board().waiting;
    let navigate = use_navigate();
    let disconnect = move |_| {
        connection.disconnect();
        navigate("/connect", Default::default());
    };
    view! {
        <header class="topbar">
            <A href="/" attr:class="topbar__brand">
                <span class="topbar__logo" aria-hidden="true"></span>
                "Mission Control"
            </A>
            <nav class="topbar__actions">
                <A href="/" exact=true attr:class="topbar__link" attr:data-testid="nav-command">
                    "Command center"
                    {move || {
                        let n = waiting.with(Vec::len);
                        (n > 0).then(|| view! {
                            <span
                                class="topbar__count"
                                data-testid="nav-waiting-count"
                                title=format!("{n} waiting on you")
                                aria-label=format!("{n} waiting on you")
                            >
                                {n}
                            </span>
                        })
                    }}
                </A>
                <A href="/missions" attr:class="topbar__link" attr:data-testid="nav-missions">"Missions"</A>
                <A href="/workspaces" attr:class="topbar__link" attr:data-testid="nav-workspaces">"Workspaces"</A>
                <button
                    class="button button--ghost"
                    on:click=move |_| theme.toggle()
                    aria-label="Switch between light and dark theme"
                    data-testid="theme-toggle"
                >
                    {move || if theme.get() == Theme::Dark { "Light theme" } else { "Dark theme" }}
                </button>
                {move || {
                    let disconnect = disconnect.clone();
                    connection
                        .get()
                        .map(|c| {
                            view! {
                                <span class="topbar__server muted" title="Connected Buildd API">
                                    {c.server_name()}
                                </span>
                                <button
                                    class="button button--ghost"
                                    on:click=disconnect
                                    data-testid="disconnect"
                                >
                                    "Disconnect"
                                </button>
                            }
                        })
                }}
            </nav>
        </header>
    }
}
