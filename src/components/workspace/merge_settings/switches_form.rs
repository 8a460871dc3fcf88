//! `<SwitchesForm>`: the merge settings being edited: auto-merge, the reviewer's patch
//! evidence, the migrations folder and the schema file.

use super::merge_switches::MergeSwitches;
use crate::components::shared::form_actions::FormActions;
use crate::components::shared::form_error::FormError;
use crate::state::mutation::Mutation;
use buildd_core::Workspace;
use leptos::prelude::*;
use serde_json::Value;
use std::sync::Arc;

#[component]
pub fn SwitchesForm(
    /// The settings typed; `None` closes the form.
    draft: RwSignal<Option<MergeSwitches>>,
    save: Mutation<Value>,
    workspace: Memo<Arc<Workspace>>,
) -> impl IntoView {
    let edit = move |f: &dyn Fn(&mut MergeSwitches)| {
        draft.update(|d| {
            if let Some(d) = d {
                f(d)
            }
        })
    };
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
}
