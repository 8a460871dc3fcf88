//! Activity's search (title words or a task's id) and the days a change falls between,
//! written to the address as they change.

use super::activity_view::{view_changer, ActivityView, ViewChange};
use leptos::prelude::*;

#[component]
pub fn ActivitySearch(shown: Memo<ActivityView>) -> impl IntoView {
    let change = view_changer(shown);
    // Typing replaces the address rather than adding a history entry per letter.
    let on_search = move |ev| change.run((ViewChange::Search(event_target_value(&ev)), true));
    let on_since = move |ev| change.run((ViewChange::Since(event_target_value(&ev)), false));
    let on_until = move |ev| change.run((ViewChange::Until(event_target_value(&ev)), false));
    let value = move |read: fn(&ActivityView) -> Option<String>| {
        move || shown.with(read).unwrap_or_default()
    };
    view! {
        <label class="field field--inline activity-search">
            <span class="sr-only">"Search tasks"</span>
            <input
                type="search"
                placeholder="Search titles or a task id"
                data-testid="activity-search"
                prop:value=value(|v| v.query.q.clone())
                on:input=on_search
            />
        </label>
        <label class="field field--inline">
            <span class="field__label">"Changed since"</span>
            <input
                type="date"
                data-testid="activity-since"
                prop:value=value(|v| v.query.since.clone())
                on:change=on_since
            />
        </label>
        <label class="field field--inline">
            <span class="field__label">"Until"</span>
            <input
                type="date"
                data-testid="activity-until"
                prop:value=value(|v| v.query.until.clone())
                on:change=on_until
            />
        </label>
    }
}
