use crate::components::shared::class_badge::ClassBadge;
use crate::components::shared::mode_badge::ModeBadge;
use crate::components::shared::status_badge::StatusBadge;
use crate::format::time_ago;
use buildd_core::markdown::is_web_address;
use buildd_core::progress::effective_class;
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// A task of a mission: title (a link to its page), badges, PR, dependencies and what a
/// blocked task is waiting on. Plain
/// anchors: the router handles same-origin clicks, and they are far lighter to render.
#[component]
pub fn TaskRow(
    task: MissionTask,
    titles: Arc<HashMap<String, String>>,
    /// What holds the task back, when it is blocked.
    waiting_on: Vec<String>,
    /// An organizer run's number: its rows all carry the mission's title, so they are told
    /// apart by it.
    run_number: Option<usize>,
) -> impl IntoView {
    let href = format!("/tasks/{}", task.id);
    let class = effective_class(&task);
    let pr = task.workers.first().and_then(|w| {
        w.pr_url
            .clone()
            .filter(|u| is_web_address(u))
            .map(|url| (url, w.pr_number, w.merged_at.is_some()))
    });
    let deps = task
        .depends_on
        .iter()
        .map(|d| {
            let title = titles
                .get(d)
                .cloned()
                .unwrap_or_else(|| d.chars().take(8).collect());
            let href = format!("/tasks/{d}");
            view! {
                <a href=href class="dep-chip" title="Depends on this task">
                    {format!("⤷ {title}")}
                </a>
            }
        })
        .collect_view();
    let updated = time_ago(task.updated_at.as_deref());
    view! {
        <li class="task-row" data-testid="task-row" data-task-id=task.id.clone()>
            <div class="task-row__main">
                <a href=href class="task-row__title" title=task.title.clone()>
                    {match run_number {
                        Some(n) => format!("Organizer run {n}"),
                        None => task.title.clone(),
                    }}
                </a>
                <div class="task-row__badges">
                    <StatusBadge status=task.status.clone() />
                    <ModeBadge mode=task.mode.clone() />
                    <ClassBadge class=class />
                </div>
            </div>
            <div class="task-row__meta small muted">
                {pr
                    .map(|(url, number, merged)| {
                        let label = match number {
                            Some(n) => format!("PR #{n}"),
                            None => "PR".to_string(),
                        };
                        let state = if merged { "merged" } else { "open" };
                        view! {
                            <a class="pr-link" href=url target="_blank" rel="noopener noreferrer">
                                {format!("{label} · {state}")}
                            </a>
                        }
                    })}
                {deps}
                {(!waiting_on.is_empty()).then(|| view! {
                    <span class="waiting-on" data-testid="waiting-on">
                        {format!("waiting on {}", waiting_on.join(", "))}
                    </span>
                })}
                <span>{updated}</span>
            </div>
        </li>
    }
}
