//! The mission list's search box and sort.

use super::list_view::{ListView, Sort};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The search box and the sort, each change written to the address.
#[component]
pub fn ListTools(shown: ListView) -> impl IntoView {
    let navigate = use_navigate();
    let go = move |view: ListView, replace: bool| {
        let options = leptos_router::NavigateOptions {
            replace,
            ..Default::default()
        };
        navigate(&view.href(), options);
    };
    let (for_search, for_sort) = (shown.clone(), shown.clone());
    let go_search = go.clone();
    // Typing replaces the address rather than adding a history entry per letter.
    let on_search = move |ev| {
        go_search(
            ListView {
                search: event_target_value(&ev),
                ..for_search.clone()
            },
            true,
        )
    };
    let on_sort = move |ev| {
        let slug = event_target_value(&ev);
        let sort = Sort::ALL
            .into_iter()
            .find(|s| s.slug() == slug)
            .unwrap_or_default();
        go(
            ListView {
                sort,
                ..for_sort.clone()
            },
            false,
        )
    };
    view! {
        <label class="field field--inline">
            <span class="sr-only">"Search missions"</span>
            <input type="search" placeholder="Search missions" data-testid="mission-search"
                prop:value=shown.search.clone() on:input=on_search />
        </label>
        <label class="field field--inline">
            <span class="field__label">"Sort"</span>
            <select data-testid="mission-sort" on:change=on_sort>
                {Sort::ALL.into_iter().map(|s| view! {
                    <option value=s.slug() selected=s == shown.sort>{s.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
