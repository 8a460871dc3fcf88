//! Every workspace of the team: its repository, how many missions it holds, and a way to
//! its missions and its settings.

use crate::api;
use crate::components::shared::empty_state::EmptyState;
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::components::workspace::workspace_row::WorkspaceRow;
use crate::state::connection::use_connection;
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use buildd_core::MissionStatus;
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn WorkspacesPage() -> impl IntoView {
    page_title(|| Some("Workspaces".into()));
    let connection = use_connection();
    let (workspaces, retry) =
        polled(move || with_connection(&connection, |c| async move { api::workspaces(&c).await }));
    super::first_screen_once(workspaces);
    let (missions, _) =
        polled(move || with_connection(&connection, |c| async move { api::missions(&c).await }));
    // Active missions per workspace; unknown until the list is read.
    let counts = Memo::new(move |_| {
        missions.with(|m| match m {
            Some(Ok(list)) => {
                let mut counts = HashMap::<String, usize>::new();
                for m in &list.missions {
                    if let (Some(ws), MissionStatus::Active) = (&m.workspace_id, &m.status) {
                        *counts.entry(ws.clone()).or_default() += 1;
                    }
                }
                Some(counts)
            }
            _ => None,
        })
    });
    view! {
        <section class="page" data-testid="workspaces-page">
            <h1>"Workspaces"</h1>
            {move || match workspaces.get() {
                None => view! { <Loading label="Loading workspaces…" /> }.into_any(),
                Some(Err(e)) => view! { <ErrorPanel error=e on_retry=retry /> }.into_any(),
                Some(Ok(list)) if list.workspaces.is_empty() => view! {
                    <EmptyState title="No workspaces yet." detail="A workspace is a repository your agents work in; Buildd creates one when a runner links a repository." />
                }
                .into_any(),
                Some(Ok(list)) => view! {
                    <ul class="rows">
                        {list.workspaces.into_iter().map(|w| view! { <WorkspaceRow workspace=w counts=counts /> }).collect_view()}
                    </ul>
                }
                .into_any(),
            }}
        </section>
    }
}
