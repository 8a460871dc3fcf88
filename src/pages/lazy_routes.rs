//! The pages a person opens after the command center, and Connect (once per browser). Built
//! with the `lazy` feature (as `cargo xtask` builds the dashboard), each page's code is a
//! wasm chunk of its own, fetched on the first visit, so the command center shows from a
//! smaller download. Without it (`trunk serve`, `cargo clippy`), they load with the app, as
//! the split build needs its post-processing to run.

use super::connect_page::ConnectPage;
use super::mission_page::MissionPage;
use super::missions_page::MissionsPage;
use super::task_page::TaskPage;
use super::workspace_page::WorkspacePage;
use super::workspaces_page::WorkspacesPage;
use leptos::prelude::*;
use leptos_router::LazyRoute;

/// Declares a route type for `$page`, split off when the `lazy` feature is on.
macro_rules! lazy_page {
    ($route:ident, $page:ident) => {
        pub struct $route;

        // The unsplit build: the same view, ready at once.
        #[cfg(not(feature = "lazy"))]
        impl LazyRoute for $route {
            fn data() -> Self {
                Self
            }
            async fn view(_: Self) -> AnyView {
                view! { <$page /> }.into_any()
            }
        }
    };
}

lazy_page!(ConnectRoute, ConnectPage);
lazy_page!(MissionsRoute, MissionsPage);
lazy_page!(MissionRoute, MissionPage);
lazy_page!(TaskRoute, TaskPage);
lazy_page!(WorkspaceRoute, WorkspacePage);
lazy_page!(WorkspacesRoute, WorkspacesPage);

// One impl per page, each at its own place in this file: the split macro names a page's
// chunk after where it stands.
#[cfg(feature = "lazy")]
#[leptos_router::lazy_route]
impl LazyRoute for MissionsRoute {
    fn data() -> Self {
        Self
    }
    fn view(this: Self) -> AnyView {
        let _ = this;
        view! { <MissionsPage /> }.into_any()
    }
}

#[cfg(feature = "lazy")]
#[leptos_router::lazy_route]
impl LazyRoute for MissionRoute {
    fn data() -> Self {
        Self
    }
    fn view(this: Self) -> AnyView {
        let _ = this;
        view! { <MissionPage /> }.into_any()
    }
}

#[cfg(feature = "lazy")]
#[leptos_router::lazy_route]
impl LazyRoute for TaskRoute {
    fn data() -> Self {
        Self
    }
    fn view(this: Self) -> AnyView {
        let _ = this;
        view! { <TaskPage /> }.into_any()
    }
}

#[cfg(feature = "lazy")]
#[leptos_router::lazy_route]
impl LazyRoute for WorkspaceRoute {
    fn data() -> Self {
        Self
    }
    fn view(this: Self) -> AnyView {
        let _ = this;
        view! { <WorkspacePage /> }.into_any()
    }
}

#[cfg(feature = "lazy")]
#[leptos_router::lazy_route]
impl LazyRoute for WorkspacesRoute {
    fn data() -> Self {
        Self
    }
    fn view(this: Self) -> AnyView {
        let _ = this;
        view! { <WorkspacesPage /> }.into_any()
    }
}

#[cfg(feature = "lazy")]
#[leptos_router::lazy_route]
impl LazyRoute for ConnectRoute {
    fn data() -> Self {
        Self
    }
    fn view(this: Self) -> AnyView {
        let _ = this;
        view! { <ConnectPage /> }.into_any()
    }
}
