//! The items' one-step actions: Run it again for failed work, Merge for a PR held for a
//! person, and Close (with a confirming step) for a mission whose work is done.

use super::request::{mutation, Actions, BUTTON};
use crate::api;
use leptos::prelude::*;

pub fn retry(task_id: String, refresh: Callback<()>) -> Actions {
    let retry = mutation(refresh, "Not queued", move |c, (): &()| {
        let id = task_id.clone();
        async move { api::queue_again(&c, &id).await }
    });
    let busy = Signal::derive(move || retry.busy());
    let view = view! {
        <button
            class=BUTTON
            data-testid="waiting-retry"
            prop:disabled=busy
            on:click=move |_| retry.dispatch(())
        >
            "Run it again"
        </button>
    };
    (Signal::derive(move || retry.error()), view.into_any())
}

pub fn merge(number: i64, workspace_id: String, refresh: Callback<()>) -> Actions {
    let merge = mutation(refresh, "Not merged", move |c, (): &()| {
        let workspace = workspace_id.clone();
        async move { api::merge_pr(&c, number, &workspace).await }
    });
    let busy = Signal::derive(move || merge.busy());
    let view = view! {
        <button
            class=BUTTON
            data-testid="waiting-merge"
            prop:disabled=busy
            on:click=move |_| merge.dispatch(())
        >
            {format!("Merge #{number}")}
        </button>
    };
    (Signal::derive(move || merge.error()), view.into_any())
}

pub fn close(mission_id: String, refresh: Callback<()>) -> Actions {
    let confirming = RwSignal::new(false);
    let close = mutation(refresh, "Not closed", move |c, (): &()| {
        let id = mission_id.clone();
        async move { api::close_mission(&c, &id).await }
    });
    let busy = Signal::derive(move || close.busy());
    let view = view! {
        <button
            class="button button--small"
            data-testid="waiting-close"
            class:hidden=confirming
            on:click=move |_| confirming.set(true)
        >
            "Close…"
        </button>
        <span class="waiting__confirm" class:hidden=move || !confirming.get()>
            "Close it? Its check-ins stop. "
            <button
                class=BUTTON
                data-testid="waiting-confirm-close"
                prop:disabled=busy
                on:click=move |_| close.dispatch(())
            >
                "Close mission"
            </button>
            <button
                class="button button--ghost button--small"
                on:click=move |_| confirming.set(false)
            >
                "Cancel"
            </button>
        </span>
    };
    (Signal::derive(move || close.error()), view.into_any())
}
