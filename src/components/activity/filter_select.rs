//! A labelled filter of Activity: "any" first, then the values it narrows to.

use leptos::prelude::*;

#[component]
pub fn FilterSelect(
    label: &'static str,
    testid: &'static str,
    /// What the empty value reads as: "Any status".
    any: &'static str,
    /// The values after it: (value, label).
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
    /// The value chosen now; empty for any.
    #[prop(into)]
    value: Signal<String>,
    on_pick: Callback<String>,
) -> impl IntoView {
    view! {
        <label class="field field--inline">
            <span class="field__label">{label}</span>
            <select data-testid=testid on:change=move |ev| on_pick.run(event_target_value(&ev))>
                <option value="" prop:selected=move || value.with(String::is_empty)>
                    {any}
                </option>
                <For each=move || options.get() key=Clone::clone let:option>
                    {
                        let (v, text) = option;
                        let chosen = v.clone();
                        view! {
                            <option value=v prop:selected=move || value.with(|now| *now == chosen)>
                                {text}
                            </option>
                        }
                    }
                </For>
            </select>
        </label>
    }
}
