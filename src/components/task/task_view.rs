//! A task as its page shows it: what it is, what came of it, its PR, what its attempts cost,
//! a plan to review, the agent's messages and where it sits among its mission's tasks.

use super::message_agent::MessageAgent;
use super::plan_banner::PlanBanner;
use super::plan_compare::comparison::Comparison;
use super::plan_review_panel::review_state::ReviewState;
use super::plan_review_panel::PlanReviewPanel;
use super::plan_steps::PlanSteps;
use super::plan_tracker::PlanTracker;
use super::revision_history::{read_history, steps_of, Replaces, RevisionHistory};
use super::run_view::RunView;
use super::task_actions::TaskActions;
use super::task_cost::TaskCost;
use super::task_head::TaskHead;
use super::task_relations::TaskRelations;
use super::task_result::TaskResult;
use crate::components::shared::markdown::Markdown;
use crate::components::shared::polled::Polled;
use crate::state::connection::use_connection;
use crate::state::refresh::{polled, PolledRead};
use crate::state::request::with_connection;
use buildd_core::client::{ClientMission, ClientTask};
use buildd_core::plan::plan_in_review;
use buildd_core::plan_phase::{plan_phase, PlanPhase};
use buildd_core::pull_request::PullRequestList;
use buildd_core::{TaskMessages, TaskMode, TaskStatus};
use leptos::prelude::*;
use serde_json::Value;

#[component]
pub fn TaskView(
    task: Memo<ClientTask>,
    /// Its mission, which names dependencies, the parent and the children, and tells where a
    /// plan stands.
    mission: Memo<Option<ClientMission>>,
    /// Its steering messages.
    messages: Memo<Option<TaskMessages>>,
    /// Its mission's PRs; `None` where the API lists none.
    prs: PolledRead<Option<PullRequestList>>,
    refresh: Callback<()>,
    /// Opens the feedback form at once (the command center's `r`).
    reject: bool,
) -> impl IntoView {
    let id = task.with_untracked(|t| t.id.clone());
    let review = ReviewState::new(id.clone(), refresh);
    review.rejecting.set(reject);
    let (plan_id, tracked_id) = (id.clone(), id.clone());
    let in_review = Memo::new(move |_| {
        mission.with(|m| match m {
            Some(m) => plan_in_review(&m.tasks).is_some_and(|t| t.id == id),
            None => {
                task.with(|t| t.mode == TaskMode::Planning && t.status == TaskStatus::Completed)
            }
        })
    });
    let output = Memo::new(move |_| {
        task.with(|t| t.result.as_ref().and_then(|r| r.structured_output.clone()))
    });
    // Kept on screen after an approval, to say what it created.
    let decided = Memo::new(move |_| review.approved().is_some());
    // Kept too while a person is writing feedback, should the plan leave review elsewhere
    // (a change shown live would otherwise take their form away).
    let writing = Memo::new(move |_| review.rejecting.get() || review.has_writing());
    let moved_on = Memo::new(move |_| !in_review.get() && !decided.get() && writing.get());
    let has_panel = Memo::new(move |_| {
        output.with(Option::is_some) && (in_review.get() || decided.get() || writing.get())
    });
    // A plan in review comes first: the decision is what the page is for. Shown once: first
    // while in review, in its place after the decision.
    let reviewing = Memo::new(move |_| in_review.get() && !decided.get());
    // A revision: the plans before it, walked back through the tasks API.
    let replaces = Memo::new(move |_| task.with(Replaces::of));
    let connection = use_connection();
    let history = polled(move || {
        let replaces = replaces.get();
        with_connection(&connection, move |c| async move {
            match replaces {
                Some(first) => read_history(c, first).await.map(Some),
                None => Ok(None),
            }
        })
    });
    let current_steps = Memo::new(move |_| output.with(|o| o.as_ref().map(steps_of)));
    let comparison = Memo::new(move |_| {
        let steps = current_steps.get().filter(|s| !s.is_empty())?;
        history
            .with_data(|h| {
                h.as_ref().and_then(|h| {
                    h.earlier.last().map(|last| {
                        Comparison::of(h.number() - 1, &last.steps, &steps, &last.step_comments)
                    })
                })
            })
            .flatten()
    });
    let panel = move |first: bool| {
        let here = Memo::new(move |_| has_panel.get() && reviewing.get() == first);
        let plan_id = plan_id.clone();
        move || {
            here.get().then(|| {
                let output = Signal::derive(move || output.get().unwrap_or_default());
                view! {
                    <PlanReviewPanel
                        plan_id=plan_id.clone()
                        output
                        state=review
                        moved_on
                        mission
                        comparison
                    />
                }
            })
        }
    };
    let phase = Memo::new(move |_| {
        task.with(|t| mission.with(|m| plan_phase(t, m.as_ref().map_or(&[], |m| &m.tasks))))
    });
    let description =
        Memo::new(move |_| task.with(|t| t.description.clone().filter(|d| !d.trim().is_empty())));
    let running = Memo::new(move |_| {
        task.with(|t| matches!(t.status, TaskStatus::Assigned | TaskStatus::InProgress))
    });
    let steering = Memo::new(move |_| {
        messages.with(|m| {
            m.as_ref()
                .is_some_and(|m| m.worker_id.is_some() && (running.get() || !m.messages.is_empty()))
        })
    });
    let plan_steps = Memo::new(move |_| {
        output.with(|o| {
            o.as_ref()
                .and_then(|o| o.get("plan"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
    });
    let show_steps = Memo::new(move |_| {
        !in_review.get() && !decided.get() && plan_steps.with(|s| !s.is_empty())
    });
    // An approved plan (here earlier, or by Buildd itself) is told by what became of it.
    let approved_elsewhere = Memo::new(move |_| {
        !has_panel.get() && matches!(phase.get(), Some(PlanPhase::Approved { .. }))
    });
    let tracker = move || {
        approved_elsewhere.get().then(|| {
            let steps = Memo::new(move |_| current_steps.get().unwrap_or_default());
            view! {
                <section class="card" data-testid="plan-outcome">
                    <h2 class="card__title">"The approved plan"</h2>
                    <PlanTracker plan_id=tracked_id.clone() steps mission />
                </section>
            }
        })
    };
    let history_view = move || {
        replaces.with(Option::is_some).then(|| {
            view! {
                <Polled read=history loading="Reading the earlier revisions…" let:found>
                    {move || {
                        found
                            .with(|h| h.is_some())
                            .then(|| {
                                let history = Memo::new(move |_| {
                                    found.with(|h| (**h).clone().unwrap_or_default())
                                });
                                view! { <RevisionHistory history /> }
                            })
                    }}
                </Polled>
            }
        })
    };
    let steering = move || {
        steering.get().then(|| {
            let worker = Memo::new(move |_| {
                messages
                    .with(|m| m.as_ref().and_then(|m| m.worker_id.clone()))
                    .filter(|_| running.get())
            });
            let history = Memo::new(move |_| {
                messages.with(|m| m.as_ref().map(|m| m.messages.clone()).unwrap_or_default())
            });
            view! { <MessageAgent worker history on_sent=refresh /> }
        })
    };
    view! {
        <TaskHead task in_review />
        <TaskActions task refresh />
        <RunView task refresh />
        {move || phase.get().map(|phase| view! { <PlanBanner phase /> })}
        {history_view}
        {panel(true)}
        <section class="card" class:hidden=reviewing>
            <h2 class="card__title">"Description"</h2>
            <div data-testid="task-description">
                {move || match description.get() {
                    Some(d) => view! { <Markdown source=d /> }.into_any(),
                    None => view! { <p class="muted">"No description."</p> }.into_any(),
                }}
            </div>
        </section>
        <section class="card" class:hidden=reviewing>
            <TaskResult task prs refresh />
        </section>
        <div class:hidden=reviewing>
            <TaskCost task />
        </div>
        {steering}
        {panel(false)}
        {move || {
            reviewing
                .get()
                .then(|| {
                    view! {
                        <details class="card" data-testid="task-brief">
                            <summary class="card__title">"The organizer's brief"</summary>
                            <div data-testid="task-brief-text">
                                {move || description.get().map(|d| view! { <Markdown source=d /> })}
                            </div>
                        </details>
                    }
                })
        }}
        {tracker}
        {move || {
            (show_steps.get() && !approved_elsewhere.get())
                .then(|| view! { <PlanSteps steps=plan_steps /> })
        }}
        <TaskRelations task mission />
    }
}
