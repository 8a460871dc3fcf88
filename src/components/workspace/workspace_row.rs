//! A workspace on the list: its name, repository and how many active missions it holds.

use buildd_core::Workspace;
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn WorkspaceRow(
    workspace: Memo<Workspace>,
    /// Active missions per workspace; `None` until the missions are read.
    counts: Memo<Option<HashMap<String, usize>>>,
) -> impl IntoView {
    let id = workspace.with_untracked(|w| w.id.clone());
    let active = {
        let id = id.clone();
        move || {
            counts.with(|c| {
                c.as_ref().map(|c| match c.get(&id).copied().unwrap_or(0) {
                    1 => "1 active mission".to_string(),
                    n => format!("{n} active missions"),
                })
            })
        }
    };
    view! {
        <li class="row card" data-testid="workspace-row">
            <a class="row__title" href=format!("/workspaces/{id}")>
                {move || workspace.with(|w| w.name.clone())}
            </a>
            <span class="muted small">
                {move || {
                    workspace.with(|w| w.repo.clone().unwrap_or_else(|| "No repository".into()))
                }}
            </span>
            <a
                class="small"
                href=format!("/missions?workspace={id}")
                data-testid="workspace-missions"
            >
                {move || active().unwrap_or_else(|| "Its missions".into())}
            </a>
        </li>
    }
}
