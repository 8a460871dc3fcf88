//! Whether a task plans or executes, as a badge.

use buildd_core::TaskMode;
use leptos::prelude::*;

#[component]
pub fn ModeBadge(mode: TaskMode) -> impl IntoView {
    let planning = mode == TaskMode::Planning;
    view! {
        <span class="badge badge--outline" class:badge--planning=planning>
            {if planning { "planning" } else { "execution" }}
        </span>
    }
}
