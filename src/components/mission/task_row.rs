//! A task of a mission: title (a link to its page), badges, PR, dependencies, what a
//! blocked task is waiting on, and how long its latest run took beside what it cost. Plain anchors: the router handles same-origin clicks, and they
//! are far lighter to render.

use crate::components::shared::class_badge::ClassBadge;
use crate::components::shared::mode_badge::ModeBadge;
use crate::components::shared::status_badge::StatusBadge;
use crate::components::shared::stop_task::StopTask;
use crate::format::time_ago;
use buildd_core::duration::span;
use buildd_core::markdown::is_web_address;
use buildd_core::progress::effective_class;
use buildd_core::requests::tasks::stop_refused;
use buildd_core::runs::seconds_between_times;
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn TaskRow(
    task: Memo<MissionTask>,
    /// Every task's title by id, to name dependencies.
    titles: Memo<HashMap<String, String>>,
    /// What holds the task back, when it is blocked.
    waiting_on: Memo<Vec<String>>,
    /// An organizer run's number: its rows all carry the mission's title, so they are told
    /// apart by it.
    run_number: Memo<Option<usize>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let id = task.with_untracked(|t| t.id.clone());
    let status = Memo::new(move |_| task.with(|t| t.status.clone()));
    let mode = Memo::new(move |_| task.with(|t| t.mode.clone()));
    let class = Memo::new(move |_| task.with(effective_class));
    let pr = Memo::new(move |_| {
        task.with(|t| {
            t.workers.first().and_then(|w| {
                w.pr_url
                    .clone()
                    .filter(|u| is_web_address(u))
                    .map(|url| (url, w.pr_number, w.merged_at.is_some()))
            })
        })
    });
    let depends_on = Memo::new(move |_| task.with(|t| t.depends_on.clone()));
    // A running row says what its agent is doing, or that it waits on you.
    let live = Memo::new(move |_| {
        task.with(|t| {
            let run = t.workers.first().filter(|w| w.status.is_live())?;
            Some(match &run.waiting_for {
                Some(_) => ("waiting on you".to_string(), true),
                None => (run.current_action.clone()?, false),
            })
        })
    });
    let stop_id = id.clone();
    let stoppable = Memo::new(move |_| stop_refused(&status.get()).is_none());
    // "took 12m · $0.70": the latest finished run's length and every attempt's cost, each
    // when the answer carries it (Buildd's mission tasks carry no cost) and something ran.
    let effort = Memo::new(move |_| {
        task.with(|t| {
            let took = t.workers.first().and_then(|w| {
                seconds_between_times(w.started_at.as_deref()?, w.completed_at.as_deref()?)
            });
            let parts: Vec<String> = took
                .map(|s| format!("took {}", span(s)))
                .into_iter()
                .chain(
                    t.cost()
                        .filter(|_| !t.workers.is_empty())
                        .map(|c| c.to_string()),
                )
                .collect();
            (!parts.is_empty()).then(|| parts.join(" · "))
        })
    });
    let dependency = move |d: String| {
        let title = {
            let d = d.clone();
            move || {
                let title = titles.with(|t| t.get(&d).cloned());
                format!("⤷ {}", title.unwrap_or_else(|| d.chars().take(8).collect()))
            }
        };
        view! {
            <a href=format!("/tasks/{d}") class="dep-chip" title="Depends on this task">
                {title}
            </a>
        }
    };
    view! {
        <li class="task-row" data-testid="task-row" data-task-id=id.clone()>
            <div class="task-row__main">
                <a
                    href=format!("/tasks/{id}")
                    class="task-row__title"
                    title=move || task.with(|t| t.title.clone())
                >
                    {move || match run_number.get() {
                        Some(n) => format!("Organizer run {n}"),
                        None => task.with(|t| t.title.clone()),
                    }}
                </a>
                <div class="task-row__badges">
                    <StatusBadge status />
                    <ModeBadge mode />
                    <ClassBadge class />
                    {move || {
                        stoppable
                            .get()
                            .then(|| {
                                let title = task.with_untracked(|t| t.title.clone());
                                view! {
                                    <StopTask
                                        task_id=stop_id.clone()
                                        title
                                        stoppable
                                        refresh
                                        compact=true
                                    />
                                }
                            })
                    }}
                </div>
            </div>
            {move || {
                live.get()
                    .map(|(text, waiting)| {
                        view! {
                            <p
                                class="current-action"
                                class:waiting-on=waiting
                                data-testid="task-current-action"
                            >
                                {text}
                            </p>
                        }
                    })
            }}
            <div class="task-row__meta small muted">
                {move || {
                    pr.get()
                        .map(|(url, number, merged)| {
                            let label = match number {
                                Some(n) => format!("PR #{n}"),
                                None => "PR".to_string(),
                            };
                            let state = if merged { "merged" } else { "open" };
                            view! {
                                <a
                                    class="pr-link"
                                    href=url
                                    target="_blank"
                                    rel="noopener noreferrer"
                                >
                                    {format!("{label} · {state}")}
                                </a>
                            }
                        })
                }} <For each=move || depends_on.get() key=String::clone children=dependency />
                {move || {
                    waiting_on
                        .with(|w| {
                            (!w.is_empty())
                                .then(|| {
                                    view! {
                                        <span class="waiting-on" data-testid="waiting-on">
                                            {format!("waiting on {}", w.join(", "))}
                                        </span>
                                    }
                                })
                        })
                }}
                {move || {
                    effort.get().map(|e| view! { <span data-testid="task-cost">{e}</span> })
                }} <span>{move || task.with(|t| time_ago(t.updated_at.as_deref()))}</span>
            </div>
        </li>
    }
}
