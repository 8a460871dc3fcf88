//! A task of Activity: its title (a link to its page), status and mode, its mission (a
//! link) or none, its workspace, when it last changed and who stopped it; Stop while it
//! runs; its retries under it.

use super::attempt_list::AttemptList;
use super::choices::Choices;
use crate::components::shared::mode_badge::ModeBadge;
use crate::components::shared::status_badge::StatusBadge;
use crate::components::shared::stop_task::StopTask;
use crate::format::time_ago;
use buildd_core::activity::ActivityTask;
use buildd_core::TaskStatus;
use leptos::prelude::*;

#[component]
pub fn ActivityRow(
    task: Memo<ActivityTask>,
    /// Names the workspace.
    choices: Memo<Choices>,
    refresh: Callback<()>,
) -> impl IntoView {
    let id = task.with_untracked(|t| t.id.clone());
    let status = Memo::new(move |_| task.with(|t| t.status.clone()));
    let mode = Memo::new(move |_| task.with(|t| t.mode.clone()));
    let running =
        Memo::new(move |_| matches!(status.get(), TaskStatus::Assigned | TaskStatus::InProgress));
    let attempts = Memo::new(move |_| task.with(|t| t.attempts.clone()));
    let mission = move || {
        task.with(|t| match &t.mission_id {
            Some(m) => {
                let title = t.mission_title.clone().unwrap_or_else(|| m.clone());
                view! {
                    <a href=format!("/missions/{m}") data-testid="activity-mission-link">
                        {title}
                    </a>
                }
                .into_any()
            }
            None => {
                view! { <span data-testid="activity-no-mission">"No mission"</span> }.into_any()
            }
        })
    };
    let workspace = move || task.with(|t| choices.with(|c| c.workspace_name(&t.workspace_id)));
    let stopped = move || {
        task.with(|t| t.stopped.clone()).map(|s| {
            view! {
                <span data-testid="activity-stopped">
                    {format!("Stopped by {} {}", s.by, time_ago(s.at.as_deref()))}
                </span>
            }
        })
    };
    let stop_id = id.clone();
    view! {
        <li class="activity-row" data-testid="activity-row" data-task-id=id.clone()>
            <div class="activity-row__main">
                <a
                    href=format!("/tasks/{id}")
                    class="activity-row__title"
                    data-testid="activity-title"
                >
                    {move || task.with(|t| t.title.clone())}
                </a>
                <div class="activity-row__badges">
                    <StatusBadge status />
                    <ModeBadge mode />
                    {move || {
                        running
                            .get()
                            .then(|| {
                                let title = task.with_untracked(|t| t.title.clone());
                                view! {
                                    <StopTask
                                        task_id=stop_id.clone()
                                        title
                                        stoppable=running
                                        refresh
                                        compact=true
                                    />
                                }
                            })
                    }}
                </div>
            </div>
            <div class="activity-row__meta small muted">
                {mission} <span data-testid="activity-workspace-name">{workspace}</span>
                <span data-testid="activity-updated">
                    {move || {
                        task.with(|t| format!("changed {}", time_ago(t.updated_at.as_deref())))
                    }}
                </span> {stopped}
            </div>
            <AttemptList attempts />
        </li>
    }
}
