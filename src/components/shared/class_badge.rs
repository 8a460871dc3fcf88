//! A task's class as a badge: deliverable, attempt, housekeeping.

use buildd_core::TaskClass;
use leptos::prelude::*;

#[component]
pub fn ClassBadge(class: TaskClass) -> impl IntoView {
    let label = match class {
        TaskClass::Work => "deliverable",
        TaskClass::Attempt => "attempt",
        TaskClass::Bookkeeping => "housekeeping",
        TaskClass::Other(_) => "other",
    };
    view! { <span class="badge badge--outline badge--class">{label}</span> }
}
