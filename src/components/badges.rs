//! Small labels on task rows: status, mode, class.

use buildd_core::{TaskClass, TaskMode, TaskStatus};
use leptos::prelude::*;

fn status_tone(status: &TaskStatus) -> &'static str {
    match status {
        TaskStatus::Completed => "ok",
        TaskStatus::Failed => "bad",
        TaskStatus::Assigned | TaskStatus::InProgress | TaskStatus::Review => "info",
        TaskStatus::Cancelled => "muted",
        _ => "neutral",
    }
}

#[component]
pub fn StatusBadge(status: TaskStatus) -> impl IntoView {
    let label = status.as_str().replace('_', " ");
    view! { <span class=format!("badge badge--{}", status_tone(&status))>{label}</span> }
}

#[component]
pub fn ModeBadge(mode: TaskMode) -> impl IntoView {
    let planning = mode == TaskMode::Planning;
    view! {
        <span class="badge badge--outline" class:badge--planning=planning>
            {if planning { "planning" } else { "execution" }}
        </span>
    }
}

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
