use crate::state::board::use_board;
use crate::state::connection::use_connection;
use crate::state::live::use_live;
use crate::state::theme::{use_theme, Theme};
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};

#[component]
pub fn AppHeader() -> impl IntoView {
    let connection = use_connection();
    let theme = use_theme();
    let waiting = use_board().count;
    let navigate = use_navigate();
    let live = use_live();
    let streamed = move || live.is_some_and(|l| l.is_open());
    // On a narrow screen the links and buttons fold under Menu, so the bar stays one row.
    let open = RwSignal::new(false);
    // The link to where the page is, as the router's links mark it; plain links are less
    // code in the first download, and the router follows them just the same.
    let path = use_location().pathname;
    let current = move |href: &'static str| {
        move || {
            let here = path.with(|p| match href {
                "/" => p == "/",
                _ => p
                    .strip_prefix(href)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
            });
            here.then_some("page")
        }
    };
    let disconnect = move |_| {
        open.set(false);
        connection.disconnect();
        navigate("/connect", Default::default());
    };
    view! {
        <header class="topbar" class:topbar--open=move || open.get()>
            <a href="/" class="topbar__brand">
                <span class="topbar__logo" aria-hidden="true"></span>
                "Mission Control"
            </a>
            <button class="button button--ghost topbar__menu" data-testid="menu"
                aria-expanded=move || open.get().to_string() aria-controls="topbar-nav"
                on:click=move |_| open.update(|o| *o = !*o)>
                "Menu"
                {move || {
                    let n = waiting.get();
                    (n > 0).then(|| view! { <span class="topbar__count">{n}</span> })
                }}
            </button>
            // A click on a link inside closes the menu again.
            <nav class="topbar__actions" id="topbar-nav" aria-label="Site" on:click=move |ev| {
                use wasm_bindgen::JsCast;
                let on_link = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|e| e.closest("a").ok().flatten().is_some());
                if on_link {
                    open.set(false);
                }
            }>
                <a href="/" class="topbar__link" data-testid="nav-command"
                    aria-current=current("/")>
                    "Command center"
                    {move || {
                        let n = waiting.get();
                        (n > 0).then(|| view! {
                            <span
                                class="topbar__count"
                                data-testid="nav-waiting-count"
                                title=format!("{n} waiting on you")
                            >
                                {n}
                            </span>
                        })
                    }}
                </a>
                <a href="/missions" class="topbar__link" data-testid="nav-missions"
                    aria-current=current("/missions")>
                    "Missions"
                </a>
                <a href="/activity" class="topbar__link" data-testid="nav-activity"
                    aria-current=current("/activity")>
                    "Activity"
                </a>
                <a href="/insights" class="topbar__link" data-testid="nav-insights"
                    aria-current=current("/insights")>
                    "Insights"
                </a>
                <a href="/workspaces" class="topbar__link" data-testid="nav-workspaces"
                    aria-current=current("/workspaces")>
                    "Workspaces"
                </a>
                <button
                    class="button button--ghost"
                    on:click=move |_| theme.toggle()
                    title="Switch between light and dark theme"
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
                                <span
                                    class="topbar__server muted"
                                    data-testid="server"
                                    data-live=move || streamed().to_string()
                                    title=move || if streamed() {
                                        "Connected Buildd API. Changes show as they happen."
                                    } else {
                                        "Connected Buildd API. Checked every few seconds."
                                    }
                                >
                                    {move || streamed().then(|| view! {
                                        <span class="topbar__live" role="img" aria-label="Live updates"></span>
                                    })}
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
