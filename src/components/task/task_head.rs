//! The top of a task's page: where it is (its mission), its title, state, mode, class and
//! when it last changed.

use crate::components::shared::class_badge::ClassBadge;
use crate::components::shared::mode_badge::ModeBadge;
use crate::components::shared::status_badge::StatusBadge;
use crate::format::time_ago;
use buildd_core::client::ClientTask;
use buildd_core::TaskClass;
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn TaskHead(
    task: Memo<ClientTask>,
    /// Its plan waits for a person: said instead of its status.
    in_review: Memo<bool>,
) -> impl IntoView {
    let mission = Memo::new(move |_| task.with(|t| t.mission.clone()));
    let status = Memo::new(move |_| task.with(|t| t.status.clone()));
    let mode = Memo::new(move |_| task.with(|t| t.mode.clone()));
    let class = Memo::new(move |_| task.with(|t| t.task_class.clone().unwrap_or(TaskClass::Work)));
    view! {
        <nav class="breadcrumbs" aria-label="Breadcrumb">
            <A href="/missions">"Missions"</A>
            {move || {
                mission
                    .get()
                    .map(|m| {
                        view! {
                            " / "
                            <A href=format!("/missions/{}", m.id)>{m.title}</A>
                        }
                    })
            }}
        </nav>
        <header class="mission-head">
            <h1 data-testid="task-title">{move || task.with(|t| t.title.clone())}</h1>
            <div class="chips">
                {move || {
                    if in_review.get() {
                        view! {
                            <span class="badge badge--warn" data-testid="task-state">
                                "in review"
                            </span>
                        }
                            .into_any()
                    } else {
                        view! {
                            <span data-testid="task-state">
                                <StatusBadge status />
                            </span>
                        }
                            .into_any()
                    }
                }} <ModeBadge mode /> <ClassBadge class />
                <span class="muted small">
                    {move || {
                        task.with(|t| format!("updated {}", time_ago(t.updated_at.as_deref())))
                    }}
                </span>
            </div>
        </header>
    }
}
