//! Whether a task plans or executes, as a badge.

use buildd_core::TaskMode;
use leptos::prelude::*;

#[component]
pub fn ModeBadge(#[prop(into)] mode: Signal<TaskMode>) -> impl IntoView {
    let planning = move || mode.with(|m| *m == TaskMode::Planning);
    view! {
        <span class="badge badge--outline" class:badge--planning=planning>
            {move || if planning() { "planning" } else { "execution" }}
        </span>
    }
}
