//! The mission list's search box and sort, each change written to the address.

use super::list_view::{ListView, Sort};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

#[component]
pub fn ListTools(shown: Memo<ListView>) -> impl IntoView {
    let navigate = use_navigate();
    let go = move |change: &dyn Fn(&mut ListView), replace: bool| {
        let mut view = shown.get_untracked();
        change(&mut view);
        let options = NavigateOptions {
            replace,
            ..Default::default()
        };
        navigate(&view.href(), options);
    };
    let go_sort = go.clone();
    // Typing replaces the address rather than adding a history entry per letter.
    let on_search = move |ev| {
        let search = event_target_value(&ev);
        go(&|v| v.search = search.clone(), true)
    };
    let on_sort = move |ev| {
        let slug = event_target_value(&ev);
        let sort = Sort::ALL
            .into_iter()
            .find(|s| s.slug() == slug)
            .unwrap_or_default();
        go_sort(&|v| v.sort = sort, false)
    };
    view! {
        <label class="field field--inline">
            <span class="sr-only">"Search missions"</span>
            <input
                type="search"
                placeholder="Search missions"
                data-testid="mission-search"
                prop:value=move || shown.with(|s| s.search.clone())
                on:input=on_search
            />
        </label>
        <label class="field field--inline">
            <span class="field__label">"Sort"</span>
            <select data-testid="mission-sort" on:change=on_sort>
                {Sort::ALL
                    .into_iter()
                    .map(|s| {
                        view! {
                            <option
                                value=s.slug()
                                prop:selected=move || shown.with(|v| v.sort == s)
                            >
                                {s.label()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}
