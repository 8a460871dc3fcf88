//! A workspace's settings page: its default merge policy and how its PRs merge.

use super::RequireConnection;
use crate::api;
use crate::components::merge_policy_editor::PolicyState;
use crate::components::panel::{ErrorPanel, Loading};
use crate::components::workspace_settings::{MergeSettings, SwitchesState, WorkspacePolicy};
use crate::state::connection::Connection;
use crate::state::refresh::polled;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
pub fn WorkspacePage() -> impl IntoView {
    view! { <RequireConnection children=|c| view! { <WorkspaceLoader connection=c /> } /> }
}

#[component]
fn WorkspaceLoader(connection: Connection) -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id")).unwrap_or_default());
    let loader = connection.clone();
    let (data, retry) = polled(move || {
        let (c, id) = (loader.clone(), id.get());
        async move { api::workspace(&c, &id).await }
    });
    // What is being typed lives here, above the refreshed workspace.
    let policy = PolicyState::for_workspace();
    let switches = SwitchesState::new();
    view! {
        <section class="page" data-testid="workspace-page">
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
                    <WorkspacePolicy workspace=ws.clone() connection=connection.clone() state=policy refresh=retry />
                    <MergeSettings workspace=ws connection=connection.clone() state=switches refresh=retry />
                }
                .into_any(),
            }}
        </section>
    }
}
