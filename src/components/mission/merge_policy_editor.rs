//! The mission's merge policy: inherit the workspace default or override it, with the
//! effective policy and why. The server's errors are shown at the field they name.

use crate::api;
use crate::components::shared::policy_form::{PolicyDraft, PolicyForm, PolicyState};
use crate::components::shared::policy_summary::{tier_label, PolicySummary};
use buildd_core::client::ClientMission;
use leptos::prelude::*;
use serde_json::{json, Value};

#[component]
pub fn MergePolicyEditor(
    mission: ClientMission,
    state: PolicyState,
    refresh: Callback<()>,
) -> impl IntoView {
    let effective = mission.effective_policy();
    let inherited = mission
        .workspace_merge_policy
        .as_ref()
        .map(|p| p.tier.clone())
        .unwrap_or_else(|| "auto-threshold (built-in default)".into());
    let own = mission.merge_policy.clone();
    let current = match &own {
        Some(p) => format!("Override: {}", tier_label(&p.tier)),
        None => format!("Inherit the workspace default: {inherited}"),
    };
    let editing = Memo::new(move |_| state.draft.with(Option::is_some));
    let workspace = mission.workspace_id.clone();
    let id = mission.id.clone();
    let save = Callback::new(move |value: Value| {
        let id = id.clone();
        state.send(
            |c| async move { api::update_mission(&c, &id, json!({ "mergePolicy": value })).await },
            refresh,
        );
    });
    view! {
        <section class="card" data-testid="merge-policy">
            <h2 class="card__title">"Merge policy"</h2>
            <p data-testid="effective-policy"><strong>{effective.reason.clone()}</strong></p>
            {move || if editing.get() {
                view! {
                    <PolicyForm
                        state=state
                        inherit_label=format!("Inherit (workspace default: {inherited})")
                        override_label="Override for this mission"
                        save=save
                        reset=true
                    />
                }
                .into_any()
            } else {
                let own = own.clone();
                view! {
                    <PolicySummary policy=effective.policy.clone() />
                    <p class="muted small" data-testid="mission-policy">
                        {current.clone()}
                        {workspace.clone().map(|w| view! {
                            " · "
                            <a href=format!("/workspaces/{w}") data-testid="workspace-settings-link">"Workspace settings"</a>
                        })}
                    </p>
                    <div class="actions">
                        <button class="button" data-testid="edit-policy"
                            on:click=move |_| { state.save.clear_error(); state.draft.set(Some(PolicyDraft::from(own.as_ref()))); }>
                            "Change"
                        </button>
                    </div>
                }
                .into_any()
            }}
        </section>
    }
}
