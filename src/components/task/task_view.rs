//! A task as its page shows it: what it is, what came of it, its PR, a plan to review, the
//! agent's messages and where it sits among its mission's tasks.

use super::message_agent::{MessageAgent, MessageDraft};
use super::plan_banner::PlanBanner;
use super::plan_review_panel::{PlanReviewPanel, ReviewState};
use super::retry_task::RetryTask;
use super::task_pr_status::TaskPrStatus;
use crate::components::shared::class_badge::ClassBadge;
use crate::components::shared::markdown::Markdown;
use crate::components::shared::mode_badge::ModeBadge;
use crate::components::shared::status_badge::StatusBadge;
use crate::format::{short_id, time_ago};
use crate::state::refresh::Polled;
use crate::state::write::Write;
use buildd_core::client::{ClientMission, ClientTask};
use buildd_core::markdown::is_web_address;
use buildd_core::plan::plan_in_review;
use buildd_core::plan_phase::plan_phase;
use buildd_core::pull_request::PullRequestList;
use buildd_core::runs::{quiet_for, run_duration, span};
use buildd_core::{MissionTask, TaskClass, TaskMessages, TaskMode, TaskStatus};
use leptos::prelude::*;
use leptos_router::components::A;
use serde_json::Value;

/// The latest run of the task in a line: which attempt, where it is, what it does, on which
/// branch, how long it has taken and when its runner last reported.
fn run_line(task: &ClientTask, now_ms: i64) -> Option<String> {
    let run = task.workers.first()?;
    let mut parts = vec![run.status.as_str().replace('_', " ")];
    parts.extend(run.current_action.clone());
    parts.extend(run.branch.as_ref().map(|b| format!("branch {b}")));
    let when = match (&run.completed_at, &run.started_at) {
        (Some(done), _) => Some(format!("ended {}", time_ago(Some(done)))),
        (None, Some(start)) => Some(format!("started {}", time_ago(Some(start)))),
        (None, None) => None,
    };
    parts.extend(when);
    parts.extend(run_duration(run, now_ms).map(|d| {
        if run.completed_at.is_some() {
            format!("took {}", span(d))
        } else {
            format!("running for {}", span(d))
        }
    }));
    if run.completed_at.is_none() {
        parts.extend(
            run.updated_at
                .as_deref()
                .map(|u| format!("last report {}", time_ago(Some(u)))),
        );
    }
    let label = match task.workers.len() {
        1 => "Attempt 1".to_string(),
        n => format!("Attempt {n} of {n}"),
    };
    Some(format!("{label}: {}", parts.join(" · ")))
}

/// A link to a task of the mission, by title when the mission is known.
fn task_link(id: &str, mission: Option<&ClientMission>) -> impl IntoView {
    let found = mission.and_then(|m| m.tasks.iter().find(|t| t.id == id));
    let label = found
        .map(|t| t.title.clone())
        .unwrap_or_else(|| short_id(id).to_string());
    let status = found.map(|t| t.status.as_str().replace('_', " "));
    view! {
        <li>
            <A href=format!("/tasks/{id}")>{label}</A>
            {status.map(|s| view! { <span class="muted small">{format!(" · {s}")}</span> })}
        </li>
    }
}

#[component]
pub fn TaskView(
    task: ClientTask,
    mission: Option<ClientMission>,
    messages: Option<TaskMessages>,
    review: ReviewState,
    draft: MessageDraft,
    retrying: Write,
    prs: Polled<Option<PullRequestList>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let class = task.task_class.clone().unwrap_or(TaskClass::Work);
    let children: Vec<String> = mission
        .as_ref()
        .map(|m| {
            m.tasks
                .iter()
                .filter(|t| t.parent_task_id.as_deref() == Some(task.id.as_str()))
                .map(|t| t.id.clone())
                .collect()
        })
        .unwrap_or_default();
    let now_ms = js_sys::Date::now() as i64;
    let latest = task.workers.first();
    let quiet = latest.and_then(|r| quiet_for(r, now_ms)).map(span);
    // The run's own error when it says more than the task's one-line result.
    let task_error = task.result.as_ref().and_then(|r| r.error.clone());
    let run_error = latest
        .and_then(|r| r.error.clone())
        .filter(|e| Some(e) != task_error.as_ref() || e.len() > 200);
    let earlier: Vec<String> = task
        .workers
        .iter()
        .skip(1)
        .map(|r| {
            let mut line = r.status.as_str().replace('_', " ");
            if let Some(d) = run_duration(r, now_ms) {
                line.push_str(&format!(" after {}", span(d)));
            }
            if let Some(e) = &r.error {
                line.push_str(&format!(": {e}"));
            }
            line
        })
        .collect();
    let summary = task.result.as_ref().and_then(|r| r.summary.clone());
    let error = task.result.as_ref().and_then(|r| r.error.clone());
    let failed = task.status == TaskStatus::Failed;
    let no_result = match task.status {
        TaskStatus::Pending => "Not started yet.",
        TaskStatus::Assigned | TaskStatus::InProgress => "A runner is working on it.",
        TaskStatus::Completed => "Finished without a summary.",
        TaskStatus::Failed => "Failed without a reason given.",
        TaskStatus::Cancelled => "Cancelled.",
        _ => "No result yet.",
    };
    let in_review = match &mission {
        Some(m) => plan_in_review(&m.tasks).is_some_and(|t| t.id == task.id),
        None => task.mode == TaskMode::Planning && task.status == TaskStatus::Completed,
    };
    let output = task
        .result
        .as_ref()
        .and_then(|r| r.structured_output.clone());
    // Kept on screen after an approval, to say what it created.
    let decided = review.approved.get_untracked().is_some();
    // Kept too while a person is writing feedback, should the plan leave review elsewhere
    // (a change shown live would otherwise take their form away).
    let writing = review.rejecting.get_untracked()
        || !review.feedback.with_untracked(|f| f.trim().is_empty());
    let moved_on = !in_review && !decided && writing;
    let panel = output
        .filter(|_| in_review || decided || writing)
        .map(|output| {
            view! {
                <PlanReviewPanel
                    task_id=task.id.clone()
                    output=output
                    state=review
                    on_approved=refresh
                    moved_on=moved_on
                />
            }
        });
    // Shown once: first while in review, in its place after the decision.
    let mut panel = panel;
    let reviewing = in_review && !decided;
    let mission_tasks: &[MissionTask] = mission.as_ref().map_or(&[], |m| &m.tasks);
    let banner = plan_phase(&task, mission_tasks).map(|phase| view! { <PlanBanner phase=phase /> });
    let revision_of = task.context.as_ref().and_then(|c| {
        c.previous_plan_task_id
            .clone()
            .map(|prev| (prev, c.plan_feedback.clone().unwrap_or_default()))
    });
    let running = matches!(task.status, TaskStatus::Assigned | TaskStatus::InProgress);
    let steering = messages
        .filter(|m| m.worker_id.is_some() && (running || !m.messages.is_empty()))
        .map(|m| {
            let worker = m.worker_id.filter(|_| running);
            view! {
                <MessageAgent
                    worker=worker
                    history=m.messages
                    draft=draft
                    on_sent=refresh
                />
            }
        });
    let plan_steps: Vec<Value> = task
        .result
        .as_ref()
        .and_then(|r| r.structured_output.as_ref())
        .and_then(|o| o.get("plan"))
        .and_then(|p| p.as_array().cloned())
        .unwrap_or_default();
    let pr = task
        .pr_url
        .clone()
        .filter(|u| is_web_address(u))
        .map(|url| {
            let label = task
                .pr_number
                .map(|n| format!("PR #{n}"))
                .unwrap_or_else(|| "Pull request".into());
            let state = if task.merged_at.is_some() {
                "merged"
            } else {
                "open"
            };
            (url, label, state)
        });
    let m = mission.as_ref();
    view! {
        <nav class="breadcrumbs">
            <A href="/missions">"Missions"</A>
            {task.mission.clone().map(|mref| view! {
                " / " <A href=format!("/missions/{}", mref.id)>{mref.title}</A>
            })}
        </nav>
        <header class="mission-head">
            <h1 data-testid="task-title">{task.title.clone()}</h1>
            <div class="chips">
                {if in_review {
                    view! { <span class="badge badge--warn" data-testid="task-state">"in review"</span> }.into_any()
                } else {
                    view! { <span data-testid="task-state"><StatusBadge status=task.status.clone() /></span> }.into_any()
                }}
                <ModeBadge mode=task.mode.clone() />
                <ClassBadge class=class />
                <span class="muted small">{format!("updated {}", time_ago(task.updated_at.as_deref()))}</span>
            </div>
        </header>
        {banner}
        {revision_of.map(|(prev, feedback)| view! {
            <p class="notice notice--muted" data-testid="plan-revision-of">
                "Revision of "
                <a href=format!("/tasks/{prev}")>"the rejected plan"</a>
                {format!(", after the feedback: “{feedback}”")}
            </p>
        })}
        // A plan in review comes first: the decision is what the page is for.
        {reviewing.then(|| panel.take())}
        <section class="card" class:hidden=reviewing>
            <h2 class="card__title">"Description"</h2>
            <div data-testid="task-description">
                {match task.description.clone().filter(|d| !d.trim().is_empty()) {
                    Some(d) => view! { <Markdown source=d /> }.into_any(),
                    None => view! { <p class="muted">"No description."</p> }.into_any(),
                }}
            </div>
        </section>
        <section class="card" class:hidden=reviewing>
            <h2 class="card__title">"Result"</h2>
            {run_line(&task, now_ms).map(|line| view! { <p class="small muted" data-testid="task-run">{line}</p> })}
            {quiet.map(|silent| view! {
                <p class="notice notice--warn" role="status" data-testid="run-quiet">
                    {format!("Its runner has not reported for {silent}: it may have stopped. A claim lapses after an hour without a report, and the task goes back to the queue.")}
                </p>
            })}
            {run_error.map(|e| view! {
                <details class="run-error" open=failed data-testid="run-error">
                    <summary>"The run's error, in full"</summary>
                    <pre>{e}</pre>
                </details>
            })}
            {(!earlier.is_empty()).then(|| view! {
                <details class="small" data-testid="earlier-runs">
                    <summary>{format!("Earlier attempts ({})", earlier.len())}</summary>
                    <ol class="earlier-runs">
                        {earlier.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}
                    </ol>
                </details>
            })}
            {match (failed, error.clone()) {
                (true, Some(e)) => view! {
                    <p class="notice notice--danger" role="alert" data-testid="task-error">
                        <strong>"Failed: "</strong>{e}
                    </p>
                }.into_any(),
                // Queued again after a failure: the reason stays in view.
                (false, Some(e)) => view! {
                    <p class="notice notice--muted" data-testid="task-last-error">
                        {format!("The last run failed: {e}")}
                    </p>
                }.into_any(),
                _ => ().into_any(),
            }}
            {match summary {
                Some(s) => view! { <div data-testid="task-summary"><Markdown source=s /></div> }.into_any(),
                None if failed && error.is_some() => ().into_any(),
                None => view! { <p class="muted" data-testid="task-no-result">{no_result}</p> }.into_any(),
            }}
            {failed.then(|| view! {
                <RetryTask task_id=task.id.clone() state=retrying refresh=refresh />
            })}
            {pr.map(|(url, label, state)| view! {
                <p>
                    <a class="pr-link" href=url target="_blank" rel="noopener noreferrer" data-testid="task-pr">
                        {format!("{label} · {state}")}
                    </a>
                </p>
            })}
            <TaskPrStatus prs=prs task_id=task.id.clone() />
        </section>
        {steering}
        {panel.take()}
        {reviewing.then(|| view! {
            <details class="card" data-testid="task-brief">
                <summary class="card__title">"The organizer's brief"</summary>
                <div data-testid="task-brief-text">
                    {task.description.clone().map(|d| view! { <Markdown source=d /> })}
                </div>
            </details>
        })}
        {(!in_review && !decided && !plan_steps.is_empty()).then(|| view! {
            <section class="card">
                <h2 class="card__title">"Plan"</h2>
                <ol class="plan-steps">
                    {plan_steps.into_iter().map(|s| {
                        let text = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("").to_string();
                        view! {
                            <li>
                                <strong>{text("title")}</strong>
                                <span class="muted small">{format!(" ({})", text("ref"))}</span>
                                <div class="small"><Markdown source=text("description") /></div>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </section>
        })}
        <section class="card relations">
            <div>
                <h2 class="card__title">"Depends on"</h2>
                {if task.depends_on.is_empty() {
                    view! { <p class="muted">"Nothing."</p> }.into_any()
                } else {
                    view! { <ul>{task.depends_on.iter().map(|d| task_link(d, m)).collect_view()}</ul> }.into_any()
                }}
            </div>
            <div>
                <h2 class="card__title">"Parent"</h2>
                {match &task.parent_task_id {
                    Some(p) => view! { <ul>{task_link(p, m)}</ul> }.into_any(),
                    None => view! { <p class="muted">"None."</p> }.into_any(),
                }}
            </div>
            <div>
                <h2 class="card__title">"Children"</h2>
                {if children.is_empty() {
                    view! { <p class="muted">"None."</p> }.into_any()
                } else {
                    view! { <ul data-testid="task-children">{children.iter().map(|c| task_link(c, m)).collect_view()}</ul> }.into_any()
                }}
            </div>
        </section>
    }
}
