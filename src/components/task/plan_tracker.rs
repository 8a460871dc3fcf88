//! An approved plan against what became of it (buildd-core's `plan_outcome`): each step
//! with its task's status, attempts, duration, cost and PR; one line of how many steps are
//! done, in flight, failed and not started; and the mission's work filed after the plan.
//! It reads the page's mission, so it moves as the rest of the page does.

use crate::components::shared::status_badge::StatusBadge;
use crate::state::rows::{row_memo, unique_keys};
use buildd_core::client::ClientMission;
use buildd_core::duration::span;
use buildd_core::money::Usd;
use buildd_core::plan_outcome::{plan_outcome, StepState};
use buildd_core::plan_output::PlanStep;
use buildd_core::task_prs::TaskPrStage;
use buildd_core::TaskStatus;
use leptos::prelude::*;

/// One step's row, owned, so a row re-renders only when its step's outcome changes.
#[derive(Clone, Debug, PartialEq)]
struct StepRow {
    step_ref: String,
    title: String,
    state: StepState,
    task: Option<(String, TaskStatus)>,
    attempts: usize,
    seconds: Option<i64>,
    cost: Option<Usd>,
    pr: Option<(String, TaskPrStage)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Tracked {
    rows: Vec<StepRow>,
    summary: String,
    /// Id and title of each task filed after the plan.
    added_after: Vec<(String, String)>,
}

fn track(plan_id: &str, steps: &[PlanStep], mission: Option<&ClientMission>) -> Tracked {
    let tasks = mission.map_or(&[][..], |m| &m.tasks[..]);
    let outcome = plan_outcome(plan_id, steps, tasks);
    Tracked {
        rows: outcome
            .steps
            .iter()
            .map(|s| StepRow {
                step_ref: s.step.step_ref.clone(),
                title: s.step.title.clone(),
                state: s.state,
                task: s.task.map(|t| (t.id.clone(), t.status.clone())),
                attempts: s.attempts,
                seconds: s.seconds,
                cost: s.cost,
                pr: s.pr.clone(),
            })
            .collect(),
        summary: outcome.summary(),
        added_after: outcome
            .added_after
            .iter()
            .map(|t| (t.id.clone(), t.title.clone()))
            .collect(),
    }
}

/// "#4" for a GitHub PR's address, else the address.
fn pr_name(url: &str) -> String {
    match url.rsplit_once("/pull/") {
        Some((_, n)) => format!("#{n}"),
        None => url.to_string(),
    }
}

fn state_tone(state: StepState) -> &'static str {
    match state {
        StepState::Done => "ok",
        StepState::InFlight => "info",
        StepState::Failed => "bad",
        StepState::NotStarted | StepState::Cancelled => "neutral",
    }
}

#[component]
fn TrackedStep(row: Memo<StepRow>) -> impl IntoView {
    let facts = move || {
        row.with(|r| {
            let mut facts: Vec<String> = Vec::new();
            if r.attempts > 1 {
                facts.push(format!("attempt {}", r.attempts));
            }
            if let Some(s) = r.seconds {
                facts.push(format!("ran {}", span(s)));
            }
            // A task no run has reported on reads $0: not a cost to show.
            if let Some(c) = r.cost.filter(|c| *c > Usd::ZERO) {
                facts.push(format!("cost {c}"));
            }
            facts.join(" · ")
        })
    };
    let status = move || {
        row.with(|r| match &r.task {
            Some((_, status)) => view! { <StatusBadge status=status.clone() /> }.into_any(),
            None => view! { <span>"no task filed"</span> }.into_any(),
        })
    };
    let title = move || {
        row.with(|r| match &r.task {
            Some((id, _)) => view! {
                <a href=format!("/tasks/{id}") data-testid="tracked-task">
                    <strong>{r.title.clone()}</strong>
                </a>
            }
            .into_any(),
            None => view! { <strong>{r.title.clone()}</strong> }.into_any(),
        })
    };
    let pr = move || {
        row.with(|r| {
            r.pr.clone().map(|(url, stage)| {
                view! {
                    <a
                        href=url.clone()
                        target="_blank"
                        rel="noopener noreferrer"
                        data-testid="tracked-pr"
                    >
                        {format!("PR {}", pr_name(&url))}
                    </a>
                    {format!(" {}", stage.label())}
                }
            })
        })
    };
    view! {
        <li
            class="tracked-step"
            data-testid="tracked-step"
            data-state=move || row.with(|r| r.state.label())
        >
            <div class="step-card__head">
                <span
                    class=move || format!("badge badge--{}", row.with(|r| state_tone(r.state)))
                    data-testid="tracked-state"
                >
                    {move || row.with(|r| r.state.label())}
                </span>
                <code class="step-card__ref">{move || row.with(|r| r.step_ref.clone())}</code>
                {title}
            </div>
            <div class="step-card__meta small muted">
                {status} <span data-testid="tracked-facts">{facts}</span> {pr}
            </div>
        </li>
    }
}

/// The live view of approved plan `plan_id`.
#[component]
pub fn PlanTracker(
    plan_id: String,
    steps: Memo<Vec<PlanStep>>,
    mission: Memo<Option<ClientMission>>,
) -> impl IntoView {
    let tracked =
        Memo::new(move |_| steps.with(|s| mission.with(|m| track(&plan_id, s, m.as_ref()))));
    let keys = Memo::new(move |_| {
        tracked.with(|t| unique_keys(t.rows.iter().map(|r| r.step_ref.clone())))
    });
    let row = move |key: String| {
        let row = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            tracked.with(|t| t.rows.get(at).cloned())
        });
        view! { <TrackedStep row /> }
    };
    let added = Memo::new(move |_| tracked.with(|t| t.added_after.clone()));
    let added_view = move || {
        added.with(|a| {
            (!a.is_empty()).then(|| {
                let links = a
                    .iter()
                    .map(|(id, title)| {
                        view! {
                            <li>
                                <a href=format!("/tasks/{id}")>{title.clone()}</a>
                            </li>
                        }
                    })
                    .collect_view();
                view! {
                    <h3>"Added after the plan"</h3>
                    <ul class="plain small" data-testid="added-after">
                        {links}
                    </ul>
                }
            })
        })
    };
    view! {
        <div class="plan-tracker" data-testid="plan-tracker">
            <p class="plan-tracker__summary" role="status" data-testid="plan-outcome-summary">
                {move || tracked.with(|t| t.summary.clone())}
            </p>
            <ol class="step-cards">
                <For each=move || keys.get() key=String::clone children=row />
            </ol>
            {added_view}
        </div>
    }
}
