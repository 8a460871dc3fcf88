//! Which workspace the weeks are drawn for: the team's, or one workspace's.

use leptos::prelude::*;

#[component]
pub fn WorkspaceFilter(
    /// (id, name) of every workspace with activity.
    #[prop(into)]
    workspaces: Signal<Vec<(String, String)>>,
    chosen: RwSignal<Option<String>>,
) -> impl IntoView {
    let options = move || {
        workspaces
            .get()
            .into_iter()
            .map(|(id, name)| {
                let selected = chosen.with(|c| c.as_deref() == Some(id.as_str()));
                view! {
                    <option value=id selected=selected>
                        {name}
                    </option>
                }
            })
            .collect_view()
    };
    view! {
        <label class="field insights__filter">
            <span class="field__label">"Workspace"</span>
            <select
                class="input"
                data-testid="insights-workspace"
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    chosen.set((!value.is_empty()).then_some(value));
                }
            >
                <option value="" selected=move || chosen.with(Option::is_none)>
                    "All workspaces"
                </option>
                {options}
            </select>
        </label>
    }
}
