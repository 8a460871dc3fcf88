//! A workspace's settings page: its default merge policy and how its PRs merge.

use super::{for_route_id, polled_by_id};
use crate::components::shared::polled::Polled;
use crate::components::workspace::merge_settings::MergeSettings;
use crate::components::workspace::workspace_policy::WorkspacePolicy;
use crate::state::capabilities::use_capabilities;
use crate::state::workspace_row::workspace_row;
use leptos::prelude::*;

#[component]
pub fn WorkspacePage() -> impl IntoView {
    for_route_id(workspace_page)
}

fn workspace_page(id: String) -> impl IntoView {
    let offered = use_capabilities();
    let data = polled_by_id(&id, move |c, id| workspace_row(c, offered, id));
    super::first_screen_once(data);
    let refresh = data.reload;
    view! {
        <section class="page" data-testid="workspace-page">
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/workspaces" data-testid="breadcrumb-workspaces">
                    "Workspaces"
                </a>
            </nav>
            <Polled read=data loading="Loading the workspace…" let:workspace>
                <h1 data-testid="workspace-name">{move || workspace.with(|w| w.name.clone())}</h1>
                <p class="muted">
                    {move || {
                        workspace.with(|w| w.repo.clone().unwrap_or_else(|| "No repository".into()))
                    }} " · " <a href=format!("/missions?workspace={id}")>"Its missions"</a>
                </p>
                <WorkspacePolicy workspace refresh />
                <MergeSettings workspace refresh />
            </Polled>
        </section>
    }
}
