//! A workspace's default merge policy, which its missions inherit. A refused save keeps
//! what was typed and says why, at the field where it can.

use crate::api;
use crate::components::shared::policy_form::{PolicyDraft, PolicyForm, PolicyState};
use crate::components::shared::policy_summary::{tier_label, PolicySummary};
use buildd_core::insights::what_if::Proposal;
use buildd_core::merge_policy::{MergePolicy, DEFAULT_MAX_LINES};
use buildd_core::requests::workspaces::WorkspacePatch;
use buildd_core::requests::Patch;
use buildd_core::Workspace;
use leptos::prelude::*;
use std::sync::Arc;

/// The default in a line, above its every setting.
fn headline(policy: Option<&MergePolicy>) -> String {
    match policy {
        Some(p) => {
            let mut s = tier_label(&p.tier).to_string();
            if let Some(n) = p.threshold.as_ref().and_then(|t| t.max_lines) {
                s.push_str(&format!(", {n} lines"));
            }
            if let Some(r) = &p.agent_review {
                s.push_str(&format!(", reviewer role {}", r.reviewer_role));
            }
            s
        }
        None => format!("auto-threshold, {DEFAULT_MAX_LINES} lines (the built-in default)"),
    }
}

#[component]
pub fn WorkspacePolicy(workspace: Memo<Arc<Workspace>>, refresh: Callback<()>) -> impl IntoView {
    let id = workspace.with_untracked(|w| w.id.clone());
    let scope = Proposal::Workspace {
        workspace_id: id.clone(),
        policy: None,
    };
    let state = PolicyState::new(refresh, move |c, value| {
        let id = id.clone();
        let mut git = serde_json::Map::new();
        git.insert("mergePolicy".into(), value);
        let change = WorkspacePatch {
            git_config: Patch::Value(git),
            ..WorkspacePatch::default()
        };
        async move { api::update_workspace(&c, &id, &change).await }
    });
    let policy = Memo::new(move |_| workspace.with(|w| w.merge_policy()));
    let editing = Memo::new(move |_| state.draft.with(Option::is_some));
    let builtin = format!("Use the built-in default (auto-threshold, {DEFAULT_MAX_LINES} lines)");
    let summary = move || {
        view! {
            <p data-testid="workspace-policy-current">
                <strong>
                    {move || policy.with(|p| format!("Default: {}", headline(p.as_ref())))}
                </strong>
            </p>
            <PolicySummary policy=Signal::derive(move || {
                policy.get().unwrap_or_else(MergePolicy::builtin)
            }) />
            <div class="actions">
                <button
                    class="button"
                    data-testid="edit-policy"
                    on:click=move |_| {
                        state.save.clear();
                        state
                            .draft
                            .set(Some(policy.with_untracked(|p| PolicyDraft::from(p.as_ref()))));
                    }
                >
                    "Change"
                </button>
            </div>
        }
    };
    view! {
        <section class="card" data-testid="workspace-policy">
            <h2 class="card__title">"Default merge policy"</h2>
            <p class="muted small">
                "Missions in this workspace use it unless they override it or require review."
            </p>
            {move || {
                if editing.get() {
                    view! {
                        <PolicyForm
                            state
                            inherit_label=builtin.clone()
                            override_label="Set a default for this workspace"
                            scope=scope.clone()
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
