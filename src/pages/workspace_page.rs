//! A workspace's settings page: its default merge policy and how its PRs merge.

use super::{polled_by_id, route_id};
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::components::shared::policy_form::PolicyState;
use crate::components::workspace::merge_settings::{MergeSettings, SwitchesState};
use crate::components::workspace::workspace_policy::WorkspacePolicy;
use crate::state::capabilities::use_capabilities;
use crate::state::workspace_row::workspace_row;
use leptos::prelude::*;

#[component]
pub fn WorkspacePage() -> impl IntoView {
    let id = route_id();
    let offered = use_capabilities();
    let (data, retry) = polled_by_id(id, move |c, id| workspace_row(c, offered, id));
    super::first_screen_once(data);
    // What is being typed lives here, above the refreshed workspace.
    let policy = PolicyState::for_workspace();
    let switches = SwitchesState::default();
    view! {
        <section class="page" data-testid="workspace-page">
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <a href="/workspaces" data-testid="breadcrumb-workspaces">"Workspaces"</a>
            </nav>
            {move || match data.get() {
                None => view! { <Loading label="Loading the workspace…" /> }.into_any(),
                Some(Err(e)) => view! { <ErrorPanel error=e on_retry=retry /> }.into_any(),
                Some(Ok(ws)) => view! {
                    <h1 data-testid="workspace-name">{ws.name.clone()}</h1>
                    <p class="muted">
                        {ws.repo.clone().unwrap_or_else(|| "No repository".into())}
                        " · "
                        <a href=format!("/missions?workspace={}", ws.id)>"Its missions"</a>
                    </p>
                    <WorkspacePolicy workspace=ws.clone() state=policy refresh=retry />
                    <MergeSettings workspace=ws state=switches refresh=retry />
                }
                .into_any(),
            }}
        </section>
    }
}
