//! A task's class as a badge: deliverable, attempt, housekeeping.

use buildd_core::TaskClass;
use leptos::prelude::*;

#[component]
pub fn ClassBadge(#[prop(into)] class: Signal<TaskClass>) -> impl IntoView {
    let label = move || {
        class.with(|c| match c {
            TaskClass::Work => "deliverable",
            TaskClass::Attempt => "attempt",
            TaskClass::Bookkeeping => "housekeeping",
            TaskClass::Other(_) => "other",
        })
    };
    view! { <span class="badge badge--outline badge--class">{label}</span> }
}
