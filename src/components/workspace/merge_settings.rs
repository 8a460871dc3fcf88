//! How a workspace's PRs merge: auto-merge on green CI, the reviewer's patch evidence,
//! where migrations live. A refused save keeps what was typed and says why.

use crate::api;
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::{refused, Mutation};
use buildd_core::requests::workspaces::WorkspacePatch;
use buildd_core::requests::Patch;
use buildd_core::Workspace;
use leptos::prelude::*;
use serde_json::{json, Map, Value};
use std::sync::Arc;

fn git(ws: &Workspace) -> Map<String, Value> {
    ws.git_config
        .as_ref()
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// The merge switches as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeSwitches {
    pub auto_merge: bool,
    pub patch_evidence: bool,
    pub migrations_path: String,
    pub schema_file: String,
}

impl MergeSwitches {
    fn from(ws: &Workspace) -> Self {
        let git = git(ws);
        let text = |k: &str| {
            git.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        Self {
            auto_merge: git.get("autoMergeOnGreenCI").and_then(Value::as_bool) != Some(false),
            patch_evidence: git
                .get("policyConfig")
                .and_then(|p| p.get("reviewerPatchEvidence"))
                .and_then(Value::as_bool)
                == Some(true),
            migrations_path: text("migrationsPath"),
            schema_file: text("schemaFile"),
        }
    }

    /// The `gitConfig` keys this form owns; other `policyConfig` keys are kept.
    fn to_json(&self, ws: &Workspace) -> Value {
        let mut policy_config = git(ws)
            .get("policyConfig")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        policy_config.insert("reviewerPatchEvidence".into(), json!(self.patch_evidence));
        let path = |s: &str| {
            let s = s.trim();
            if s.is_empty() {
                Value::Null
            } else {
                json!(s)
            }
        };
        json!({
            "autoMergeOnGreenCI": self.auto_merge,
            "policyConfig": policy_config,
            "migrationsPath": path(&self.migrations_path),
            "schemaFile": path(&self.schema_file),
        })
    }
}

/// The summary's lines.
fn summary(now: &MergeSwitches) -> [String; 3] {
    let on_off = |b: bool| if b { "on" } else { "off" };
    [
        format!("Auto-merge on green CI: {}", on_off(now.auto_merge)),
        format!(
            "The reviewer sees {}",
            if now.patch_evidence {
                "the patch, with added lines numbered"
            } else {
                "the changed files' names"
            }
        ),
        format!(
            "Migrations in {} · schema file {}",
            if now.migrations_path.is_empty() {
                "migrations/"
            } else {
                &now.migrations_path
            },
            if now.schema_file.is_empty() {
                "schema.sql"
            } else {
                &now.schema_file
            },
        ),
    ]
}

#[component]
pub fn MergeSettings(workspace: Memo<Arc<Workspace>>, refresh: Callback<()>) -> impl IntoView {
    // `Some` while the form is open.
    let draft = RwSignal::new(None::<MergeSwitches>);
    let edit = move |f: &dyn Fn(&mut MergeSwitches)| {
        draft.update(|d| {
            if let Some(d) = d {
                f(d)
            }
        })
    };
    let now = Memo::new(move |_| workspace.with(|w| MergeSwitches::from(w)));
    let id = workspace.with_untracked(|w| w.id.clone());
    let save = Mutation::send_then_clear(
        draft,
        refresh,
        move |c, git: &Value| {
            let id = id.clone();
            let change = WorkspacePatch {
                git_config: Patch::Value(git.as_object().cloned().unwrap_or_default()),
                ..WorkspacePatch::default()
            };
            async move { api::update_workspace(&c, &id, &change).await }
        },
        refused("Not saved"),
    );
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Some(d) = draft.get_untracked() {
            save.dispatch(workspace.with_untracked(|w| d.to_json(w)));
        }
    };
    let checked =
        move |get: fn(&MergeSwitches) -> bool| move || draft.with(|d| d.as_ref().is_some_and(get));
    let text = move |get: fn(&MergeSwitches) -> String| {
        move || draft.with(|d| d.as_ref().map(get).unwrap_or_default())
    };
    let editing = Memo::new(move |_| draft.with(Option::is_some));
    view! {
        <section class="card" data-testid="merge-settings">
            <h2 class="card__title">"Merging"</h2>
            {move || match editing.get() {
                true => {
                    view! {
                        <form class="form" on:submit=submit>
                            <label class="checkbox">
                                <input
                                    type="checkbox"
                                    data-testid="auto-merge"
                                    prop:checked=checked(|d| d.auto_merge)
                                    on:change=move |ev| {
                                        let v = event_target_checked(&ev);
                                        edit(&|d| d.auto_merge = v)
                                    }
                                />
                                "Auto-merge on green CI (clear it to have a person merge every PR)"
                            </label>
                            <label class="checkbox">
                                <input
                                    type="checkbox"
                                    data-testid="patch-evidence"
                                    prop:checked=checked(|d| d.patch_evidence)
                                    on:change=move |ev| {
                                        let v = event_target_checked(&ev);
                                        edit(&|d| d.patch_evidence = v)
                                    }
                                />
                                "Give the reviewer agent the patch, not only the file names"
                            </label>
                            <label for="migrations-path">"Migrations folder"</label>
                            <input
                                id="migrations-path"
                                placeholder="migrations/"
                                data-testid="migrations-path"
                                prop:value=text(|d| d.migrations_path.clone())
                                on:input=move |ev| {
                                    let v = event_target_value(&ev);
                                    edit(&|d| d.migrations_path = v.clone())
                                }
                            />
                            <label for="schema-file">"Schema file"</label>
                            <input
                                id="schema-file"
                                placeholder="schema.sql"
                                data-testid="schema-file"
                                prop:value=text(|d| d.schema_file.clone())
                                on:input=move |ev| {
                                    let v = event_target_value(&ev);
                                    edit(&|d| d.schema_file = v.clone())
                                }
                            />
                            <FormError error=move || save.error() testid="settings-error" />
                            <FormActions
                                save_testid="save-settings"
                                busy=move || save.busy()
                                working="Saving…"
                                on_cancel=move |_| {
                                    draft.set(None);
                                    save.clear();
                                }
                            />
                        </form>
                    }
                        .into_any()
                }
                false => {
                    view! {
                        <ul class="plain" data-testid="merge-settings-current">
                            {move || {
                                now.with(summary)
                                    .into_iter()
                                    .map(|s| view! { <li>{s}</li> })
                                    .collect_view()
                            }}
                        </ul>
                        <div class="actions">
                            <button
                                class="button"
                                data-testid="edit-settings"
                                on:click=move |_| {
                                    save.clear();
                                    draft.set(Some(now.get_untracked()));
                                }
                            >
                                "Change"
                            </button>
                        </div>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
