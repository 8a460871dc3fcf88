//! A task's status as a badge, toned by where it stands.

use buildd_core::TaskStatus;
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
