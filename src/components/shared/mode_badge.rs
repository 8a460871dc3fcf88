//! Whether a task plans or executes, as a badge.

use buildd_core::TaskMode;
use leptos::prelude::*;

#[component]
pub fn ModeBadge(#[prop(into)] mode: Signal<TaskMode>) -> impl IntoView {
    let planning = move || mode.with(|m| *m == TaskMode::Planning);
    view! {
        <span class=move || {
            if planning() { "badge badge--outline badge--planning" } else { "badge badge--outline" }
        }>{move || if planning() { "planning" } else { "execution" }}</span>
    }
}
