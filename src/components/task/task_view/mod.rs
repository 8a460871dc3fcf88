//! A task as its page shows it: what it is, what came of it, its PR, what its attempts cost,
//! a plan to review, the agent's messages and where it sits among its mission's tasks.

pub mod approved_plan;
pub mod organizer_brief;
pub mod plan_history;
pub mod revisions;
pub mod steering;
pub mod task_description;

use self::approved_plan::ApprovedPlan;
use self::organizer_brief::OrganizerBrief;
use self::plan_history::PlanHistory;
use self::revisions::{compare_with_last, read_revisions};
use self::steering::Steering;
use self::task_description::TaskDescription;
use super::plan_banner::PlanBanner;
use super::plan_review_panel::review_state::ReviewState;
use super::plan_review_panel::PlanReviewPanel;
use super::plan_steps::PlanSteps;
use super::revision_history::history::steps_of;
use super::run_view::RunView;
use super::task_actions::TaskActions;
use super::task_cost::TaskCost;
use super::task_head::TaskHead;
use super::task_relations::TaskRelations;
use super::task_result::TaskResult;
use crate::state::refresh::PolledRead;
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
    let (replaces, history) = read_revisions(task);
    let current_steps = Memo::new(move |_| output.with(|o| o.as_ref().map(steps_of)));
    let comparison = compare_with_last(current_steps, history);
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
    view! {
        <TaskHead task in_review />
        <TaskActions task refresh />
        <RunView task refresh />
        {move || phase.get().map(|phase| view! { <PlanBanner phase /> })}
        <PlanHistory replaces history />
        {panel(true)}
        <TaskDescription description reviewing />
        <section class="card" class:hidden=reviewing>
            <TaskResult task prs refresh />
        </section>
        <div class:hidden=reviewing>
            <TaskCost task />
        </div>
        <Steering messages running refresh />
        {panel(false)}
        <OrganizerBrief reviewing description />
        <ApprovedPlan shown=approved_elsewhere plan_id=tracked_id steps=current_steps mission />
        {move || {
            (show_steps.get() && !approved_elsewhere.get())
                .then(|| view! { <PlanSteps steps=plan_steps /> })
        }}
        <TaskRelations task mission />
    }
}
