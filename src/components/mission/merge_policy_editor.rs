//! The mission's merge policy: inherit the workspace default or override it, with the
//! effective policy and why. The server's errors are shown at the field they name.

use crate::api;
use crate::components::shared::policy_form::{PolicyDraft, PolicyForm, PolicyState};
use crate::components::shared::policy_summary::{tier_label, PolicySummary};
use buildd_core::client::ClientMission;
use buildd_core::insights::what_if::Proposal;
use buildd_core::requests::missions::MissionPatch;
use buildd_core::requests::Patch;
use leptos::prelude::*;

#[component]
pub fn MergePolicyEditor(mission: Memo<ClientMission>, refresh: Callback<()>) -> impl IntoView {
    let id = mission.with_untracked(|m| m.id.clone());
    let scope = Proposal::Mission {
        mission_id: id.clone(),
        policy: None,
    };
    let state = PolicyState::new(refresh, move |c, value| {
        let id = id.clone();
        let change = MissionPatch {
            // Null inherits the workspace's again.
            merge_policy: Patch::from(Some(value).filter(|v| !v.is_null())),
            ..MissionPatch::default()
        };
        async move { api::update_mission(&c, &id, &change).await }
    });
    let effective = Memo::new(move |_| mission.with(ClientMission::effective_policy));
    let inherited = Memo::new(move |_| {
        mission.with(|m| {
            m.workspace_merge_policy
                .as_ref()
                .map(|p| p.tier.to_string())
                .unwrap_or_else(|| "auto-threshold (built-in default)".into())
        })
    });
    let current = move || {
        mission.with(|m| match &m.merge_policy {
            Some(p) => format!("Override: {}", tier_label(&p.tier)),
            None => format!("Inherit the workspace default: {}", inherited.get()),
        })
    };
    let workspace = Memo::new(move |_| mission.with(|m| m.workspace_id.clone()));
    let editing = Memo::new(move |_| state.draft.with(Option::is_some));
    let summary = move || {
        view! {
            <PolicySummary policy=Signal::derive(move || effective.with(|e| e.policy.clone())) />
            <p class="muted small" data-testid="mission-policy">
                {current}
                {move || {
                    workspace
                        .get()
                        .map(|w| {
                            view! {
                                " · "
                                <a
                                    href=format!("/workspaces/{w}")
                                    data-testid="workspace-settings-link"
                                >
                                    "Workspace settings"
                                </a>
                            }
                        })
                }}
            </p>
            <div class="actions">
                <button
                    class="button"
                    data-testid="edit-policy"
                    on:click=move |_| {
                        state.save.clear();
                        let own = mission.with_untracked(|m| m.merge_policy.clone());
                        state.draft.set(Some(PolicyDraft::from(own.as_ref())));
                    }
                >
                    "Change"
                </button>
            </div>
        }
    };
    view! {
        <section class="card" data-testid="merge-policy">
            <h2 class="card__title">"Merge policy"</h2>
            <p data-testid="effective-policy">
                <strong>{move || effective.with(|e| e.reason.clone())}</strong>
            </p>
            {move || {
                if editing.get() {
                    view! {
                        <PolicyForm
                            state
                            inherit_label=format!(
                                "Inherit (workspace default: {})",
                                inherited.get_untracked(),
                            )
                            override_label="Override for this mission"
                            scope=scope.clone()
                            reset=true
                        />
                    }
                        .into_any()
                } else {
                    summary().into_any()
                }
            }}
        </section>
    }
}
