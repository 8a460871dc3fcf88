//! Stop a running or queued task: a confirming step with an optional reason, then the task
//! ends as cancelled and its agent is told to abort. The server's refusal (a task that
//! already ended) shows in place, with the reason kept; a Stop that did not stick says so.

use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::TaskStatus;
use leptos::prelude::*;

#[component]
pub fn StopTask(
    task_id: String,
    /// Named in the confirming step, so a row's Stop says which task.
    title: String,
    refresh: Callback<()>,
    /// Whether the task may be stopped now: the button shows only then, but a confirming
    /// step already open stays, so a Stop sent as the task ends meets the server's refusal.
    #[prop(into)]
    stoppable: Signal<bool>,
    /// Smaller, for a row.
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let confirming = RwSignal::new(false);
    let reason = RwSignal::new(String::new());
    let stop = Mutation::request(
        move |c, why: &String| {
            let (id, why) = (task_id.clone(), why.clone());
            async move {
                let why = Some(why.trim()).filter(|w| !w.is_empty());
                api::stop_task(&c, &id, why).await?;
                // Read back: a task that ended another way meanwhile is not stopped.
                let now = api::task(&c, &id).await?.status;
                refresh.run(());
                if now != TaskStatus::Cancelled {
                    return Err(api::ApiError::Status(
                        409,
                        format!("the task is {} now, not stopped", now.label()),
                    ));
                }
                confirming.set(false);
                reason.set(String::new());
                Ok(())
            }
        },
        refused("Not stopped"),
    );
    let busy = Signal::derive(move || stop.busy());
    let size = if compact { " button--small" } else { "" };
    let confirm = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        stop.dispatch(reason.get_untracked());
    };
    view! {
        <span class="stop">
            <button
                class=format!("button button--danger{size}")
                data-testid="stop-task"
                class:hidden=move || confirming.get() || !stoppable.get()
                on:click=move |_| {
                    stop.clear();
                    confirming.set(true);
                }
            >
                "Stop…"
            </button>
            <form
                class="form stop__confirm"
                class:hidden=move || !confirming.get()
                on:submit=confirm
            >
                <span>{format!("Stop {title}? Its agent is told to end its run.")}</span>
                <input
                    type="text"
                    aria-label="Reason (optional)"
                    placeholder="Why (optional)"
                    data-testid="stop-reason"
                    prop:value=reason
                    on:input=move |ev| reason.set(event_target_value(&ev))
                />
                <button
                    class=format!("button button--danger{size}")
                    type="submit"
                    prop:disabled=busy
                    data-testid="stop-confirm"
                >
                    {move || if busy.get() { "Stopping…" } else { "Stop task" }}
                </button>
                <button
                    class=format!("button button--ghost{size}")
                    type="button"
                    on:click=move |_| confirming.set(false)
                >
                    "Cancel"
                </button>
            </form>
            {move || {
                stop.error()
                    .map(|e| {
                        view! {
                            <span class="form__error" role="alert" data-testid="stop-error">
                                {e}
                            </span>
                        }
                    })
            }}
        </span>
    }
}
