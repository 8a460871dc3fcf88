//! The pages a person opens after the command center, and Connect (once per browser). Built
//! with the `lazy` feature (as `cargo xtask` builds the dashboard), each page's code is a
//! wasm chunk of its own, fetched on the first visit, so the command center shows from a
//! smaller download. Without it (`trunk serve`, `cargo clippy`), they load with the app, as
//! the split build needs its post-processing to run.
//!
//! All eight are one route view, [`Page`]: the router's code for a route is then in the first
//! download once, not once per page.

use super::activity_page::ActivityPage;
use super::connect_page::ConnectPage;
use super::insights_page::InsightsPage;
use super::mission_page::MissionPage;
use super::missions_page::MissionsPage;
use super::task_page::TaskPage;
use super::workspace_page::WorkspacePage;
use super::workspaces_page::WorkspacesPage;
use crate::api::ApiError;
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::require_connection::RequireConnection;
use crate::state::first_screen::{split_off, Later};
use crate::state::stylesheet::{link, PAGES};
use leptos::prelude::*;
use leptos_router::ChooseView;

/// A page after the command center, as a route's view.
#[derive(Clone, Copy)]
pub enum Page {
    Activity,
    Connect,
    Insights,
    Missions,
    Mission,
    Task,
    Workspaces,
    Workspace,
}

impl ChooseView for Page {
    /// The page, once its chunk and the pages' styles are in (fetched side by side); a
    /// chunk that does not load is said, with a reload.
    async fn choose(self) -> AnyView {
        let styles = link(PAGES);
        let page = match self {
            Page::Activity => activity().await,
            Page::Connect => connect().await,
            Page::Insights => insights().await,
            Page::Missions => missions().await,
            Page::Mission => mission().await,
            Page::Task => task().await,
            Page::Workspaces => workspaces().await,
            Page::Workspace => workspace().await,
        };
        styles.await;
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

/// Declares `$name`, the page `$page`'s view, in the split build's chunk `$chunk`; a
/// `connected` page shows once this tab is connected.
macro_rules! page_chunk {
    ($name:ident, $chunk:ident, $page:ident) => {
        page_chunk!($name, $chunk, view! { <$page /> });
    };
    ($name:ident, $chunk:ident, connected $page:ident) => {
        page_chunk!(
            $name,
            $chunk,
            view! { <RequireConnection><$page /></RequireConnection> }
        );
    };
    ($name:ident, $chunk:ident, $view:expr) => {
        split_off!(
            $chunk,
            AnyView,
            fn $name() -> Later<Result<AnyView, ApiError>> {
                let page = $view.into_any();
                Box::pin(async move { Ok(page) })
            }
        );
    };
}

page_chunk!(activity, activity_page, connected ActivityPage);
page_chunk!(connect, connect_page, ConnectPage);
page_chunk!(insights, insights_page, connected InsightsPage);
page_chunk!(missions, missions_page, connected MissionsPage);
page_chunk!(mission, mission_page, connected MissionPage);
page_chunk!(task, task_page, connected TaskPage);
page_chunk!(workspaces, workspaces_page, connected WorkspacesPage);
page_chunk!(workspace, workspace_page, connected WorkspacePage);
