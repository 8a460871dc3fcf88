//! The pages a person opens after the command center, and Connect (once per browser). Built
//! with the `lazy` feature (as `cargo xtask` builds the dashboard), each page's code is a
//! wasm chunk of its own, fetched on the first visit, so the command center shows from a
//! smaller download. Without it (`trunk serve`, `cargo clippy`), they load with the app, as
//! the split build needs its post-processing to run.
//!
//! All six are one route view, [`Page`]: the router's code for a route is then in the first
//! download once, not once per page.

use super::connect_page::ConnectPage;
use super::mission_page::MissionPage;
use super::missions_page::MissionsPage;
use super::task_page::TaskPage;
use super::workspace_page::WorkspacePage;
use super::workspaces_page::WorkspacesPage;
use crate::api::ApiError;
use crate::components::panel::ErrorPanel;
use crate::state::first_screen::{split_off, Later};
use leptos::prelude::*;
use leptos_router::ChooseView;

/// A page after the command center, as a route's view.
#[derive(Clone, Copy)]
pub enum Page {
    Connect,
    Missions,
    Mission,
    Task,
    Workspaces,
    Workspace,
}

impl ChooseView for Page {
    /// The page, once its chunk is in; a chunk that does not load is said, with a reload.
    async fn choose(self) -> AnyView {
        let page = match self {
            Page::Connect => connect().await,
            Page::Missions => missions().await,
            Page::Mission => mission().await,
            Page::Task => task().await,
            Page::Workspaces => workspaces().await,
            Page::Workspace => workspace().await,
        };
        page.unwrap_or_else(|error| {
            let reload = Callback::new(|()| {
                let _ = window().location().reload();
            });
            view! { <ErrorPanel error on_retry=reload /> }.into_any()
        })
    }

    /// Nothing to fetch before: `choose` waits for the chunk.
    async fn preload(&self) {}
}

/// The page's view, ready now: what each chunk's function returns.
fn ready(page: impl IntoView + 'static) -> Later<Result<AnyView, ApiError>> {
    let page = page.into_any();
    Box::pin(async move { Ok(page) })
}

split_off!(
    connect_page,
    AnyView,
    fn connect() -> Later<Result<AnyView, ApiError>> {
        ready(view! { <ConnectPage /> })
    }
);

split_off!(
    missions_page,
    AnyView,
    fn missions() -> Later<Result<AnyView, ApiError>> {
        ready(view! { <MissionsPage /> })
    }
);

split_off!(
    mission_page,
    AnyView,
    fn mission() -> Later<Result<AnyView, ApiError>> {
        ready(view! { <MissionPage /> })
    }
);

split_off!(
    task_page,
    AnyView,
    fn task() -> Later<Result<AnyView, ApiError>> {
        ready(view! { <TaskPage /> })
    }
);

split_off!(
    workspaces_page,
    AnyView,
    fn workspaces() -> Later<Result<AnyView, ApiError>> {
        ready(view! { <WorkspacesPage /> })
    }
);

split_off!(
    workspace_page,
    AnyView,
    fn workspace() -> Later<Result<AnyView, ApiError>> {
        ready(view! { <WorkspacePage /> })
    }
);
