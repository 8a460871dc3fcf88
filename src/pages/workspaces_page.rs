//! Every workspace of the team: its repository, how many missions it holds, and a way to
//! its missions and its settings.

use super::polled_api;
use crate::api;
use crate::components::shared::empty_state::EmptyState;
use crate::components::shared::polled::Polled;
use crate::components::workspace::workspace_row::WorkspaceRow;
use crate::state::rows::row_memo;
use crate::state::title::page_title;
use buildd_core::{MissionStatus, WorkspaceList};
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

const WHAT_A_WORKSPACE_IS: &str = "A workspace is a repository your agents work in; Buildd \
                                   creates one when a runner links a repository.";

#[component]
pub fn WorkspacesPage() -> impl IntoView {
    page_title(|| Some("Workspaces".into()));
    let workspaces = polled_api(|c| async move { api::workspaces(&c).await });
    super::first_screen_once(workspaces);
    let missions = polled_api(|c| async move { api::missions(&c).await });
    // Active missions per workspace; unknown until the list is read.
    let counts = Memo::new(move |_| {
        missions.with_data(|list| {
            let mut counts = HashMap::<String, usize>::new();
            for m in &list.missions {
                if let (Some(ws), MissionStatus::Active) = (&m.workspace_id, &m.status) {
                    *counts.entry(ws.clone()).or_default() += 1;
                }
            }
            counts
        })
    });
    let list = move |list: Memo<Arc<WorkspaceList>>| {
        let empty = Memo::new(move |_| list.with(|l| l.workspaces.is_empty()));
        let row = move |id: String| {
            let workspace =
                row_memo(move || list.with(|l| l.workspaces.iter().find(|w| w.id == id).cloned()));
            view! { <WorkspaceRow workspace counts /> }
        };
        move || {
            if empty.get() {
                view! { <EmptyState title="No workspaces yet." detail=WHAT_A_WORKSPACE_IS /> }
                    .into_any()
            } else {
                view! {
                    <ul class="rows">
                        <For
                            each=move || {
                                list.with(|l| {
                                    l.workspaces.iter().map(|w| w.id.clone()).collect::<Vec<_>>()
                                })
                            }
                            key=String::clone
                            children=row
                        />
                    </ul>
                }
                .into_any()
            }
        }
    };
    view! {
        <section class="page" data-testid="workspaces-page">
            <h1>"Workspaces"</h1>
            <Polled read=workspaces loading="Loading workspaces…" let:workspaces>
                {list(workspaces)}
            </Polled>
        </section>
    }
}
