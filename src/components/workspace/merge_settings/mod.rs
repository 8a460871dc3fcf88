//! How a workspace's PRs merge: auto-merge on green CI, the reviewer's patch evidence,
//! where migrations live. A refused save keeps what was typed and says why.

pub mod merge_switches;
pub mod switches_form;

use self::merge_switches::{summary, MergeSwitches};
use self::switches_form::SwitchesForm;
use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::requests::workspaces::WorkspacePatch;
use buildd_core::requests::Patch;
use buildd_core::Workspace;
use leptos::prelude::*;
use serde_json::Value;
use std::sync::Arc;

#[component]
pub fn MergeSettings(workspace: Memo<Arc<Workspace>>, refresh: Callback<()>) -> impl IntoView {
    // `Some` while the form is open.
    let draft = RwSignal::new(None::<MergeSwitches>);
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
    let editing = Memo::new(move |_| draft.with(Option::is_some));
    view! {
        <section class="card" data-testid="merge-settings">
            <h2 class="card__title">"Merging"</h2>
            {move || match editing.get() {
                true => view! { <SwitchesForm draft save workspace /> }.into_any(),
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
