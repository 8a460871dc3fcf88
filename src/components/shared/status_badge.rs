//! A task's status as a badge, toned by where it stands.

use buildd_core::TaskStatus;
use leptos::prelude::*;

fn tone(status: &TaskStatus) -> &'static str {
    match status {
        TaskStatus::Completed => "ok",
        TaskStatus::Failed => "bad",
        TaskStatus::Assigned | TaskStatus::InProgress | TaskStatus::Review => "info",
        TaskStatus::Cancelled => "muted",
        _ => "neutral",
    }
}

#[component]
pub fn StatusBadge(#[prop(into)] status: Signal<TaskStatus>) -> impl IntoView {
    view! {
        <span class=move || {
            status.with(|s| format!("badge badge--{}", tone(s)))
        }>{move || status.with(|s| s.label().into_owned())}</span>
    }
}
