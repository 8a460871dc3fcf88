//! Merge for a PR "Waiting on you" read from a task, where the API lists no PRs (Buildd):
//! Buildd's mission list does not say where CI stands, so a person's Merge first reads the
//! mission (and the workspace whose policy it inherits), then the policy judges it as on
//! the mission page.

use crate::api::{self, ApiError, Connection};
use crate::components::shared::form_error::FormError;
use crate::components::shared::merge_on_buildd::MergeOnBuildd;
use crate::state::capabilities::{use_capabilities, Offered};
use crate::state::mutation::{refused, Mutation};
use crate::state::workspace_row::workspace_row;
use buildd_core::merge_policy::EffectivePolicy;
use buildd_core::task_prs::{prs_of_tasks, TaskPr};
use leptos::prelude::*;

/// The PR as it stands now, the policy it follows, and its workspace.
type Read = (TaskPr, EffectivePolicy, Option<String>);

async fn read_pr(
    c: Connection,
    offered: Offered,
    mission_id: String,
    task_id: String,
) -> Result<Read, ApiError> {
    let mut mission = api::mission(&c, &mission_id).await?;
    let pr = prs_of_tasks(&mission.tasks)
        .into_iter()
        .find(|p| p.task_id == task_id)
        .ok_or_else(|| ApiError::NotFound("The task no longer has a PR".into()))?;
    if let Some(id) = mission.workspace_id.clone() {
        // Without its row the mission's own policy, or the built-in one, decides.
        if let Ok(ws) = workspace_row(c, offered, id).await {
            mission.inherit_from(&ws);
        }
    }
    Ok((pr, mission.effective_policy(), mission.workspace_id.clone()))
}

#[component]
pub fn MergeFromTask(mission_id: String, task_id: String, refresh: Callback<()>) -> impl IntoView {
    let offered = use_capabilities();
    let read = Mutation::<(), Read>::request(
        move |c, (): &()| read_pr(c, offered, mission_id.clone(), task_id.clone()),
        refused("Not read"),
    );
    let judged = move || {
        read.answer().map(|(pr, policy, workspace_id)| {
            let pr = Memo::new(move |_| pr.clone());
            let policy = Signal::stored(policy);
            let workspace_id = Signal::stored(workspace_id);
            view! { <MergeOnBuildd pr policy workspace_id refresh opened=true /> }
        })
    };
    view! {
        <Show
            when=move || read.answer().is_some()
            fallback=move || {
                view! {
                    <button
                        class="button button--small"
                        data-testid="merge-pr"
                        prop:disabled=move || read.busy()
                        on:click=move |_| read.dispatch(())
                    >
                        "Merge…"
                    </button>
                    <FormError error=Signal::derive(move || read.error()) testid="merge-error" />
                }
            }
        >
            {judged}
        </Show>
    }
}
