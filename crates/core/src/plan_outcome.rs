//! An approved plan against what became of it: each step with the task filed for it (its
//! attempts folded in), where that task stands, its PR's stage, its cost and how long it
//! ran; the steps counted done, in flight, failed and not started; and the mission's later
//! deliverables that were not in the plan.

use crate::enums::TaskStatus;
use crate::mission::{MissionTask, WorkerSummary};
use crate::money::Usd;
use crate::plan_output::PlanStep;
use crate::progress::{is_attempt, is_deliverable};
use crate::runs::seconds_between_times;
use crate::task_prs::TaskPrStage;

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepState {
    /// Its task has not been picked up, or no task was filed for it.
    NotStarted,
    /// An agent works on it, or its PR waits to merge.
    InFlight,
    /// Completed, its PR (if any) merged.
    Done,
    /// Failed, with no attempt still going.
    Failed,
    /// Cancelled: it will not be done.
    Cancelled,
}

impl StepState {
    pub fn label(self) -> &'static str {
        match self {
            Self::NotStarted => "not started",
            Self::InFlight => "in flight",
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

/// One step of the plan and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOutcome<'a> {
    pub step: &'a PlanStep,
    /// The task filed for it; `None` when none matches it.
    pub task: Option<&'a MissionTask>,
    /// Runs of it: the task and its retries.
    pub attempts: usize,
    pub state: StepState,
    /// Its PR's stage, when one was opened.
    pub pr: Option<(String, TaskPrStage)>,
    /// What it cost, when the answer says.
    pub cost: Option<Usd>,
    /// How long its runs took, in seconds, when the answer says.
    pub seconds: Option<i64>,
}

/// The plan's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOutcome<'a> {
    pub steps: Vec<StepOutcome<'a>>,
    /// Deliverables of the mission filed after the plan's steps, not part of it.
    pub added_after: Vec<&'a MissionTask>,
}

impl PlanOutcome<'_> {
    /// How many steps stand at `state`.
    pub fn count(&self, state: StepState) -> usize {
        self.steps.iter().filter(|s| s.state == state).count()
    }

    /// "2 done · 1 in flight · 1 failed · 1 not started", naming only what is there.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = [
            StepState::Done,
            StepState::InFlight,
            StepState::Failed,
            StepState::NotStarted,
            StepState::Cancelled,
        ]
        .into_iter()
        .filter_map(|s| {
            let n = self.count(s);
            (n > 0).then(|| format!("{n} {}", s.label()))
        })
        .collect();
        if parts.is_empty() {
            "no steps".into()
        } else {
            parts.join(" · ")
        }
    }
}

fn normal(title: &str) -> String {
    title.trim().to_lowercase()
}

/// What became of the plan of planning task `plan_id`, whose `steps` were approved, among
/// the mission's `tasks`. A step's task is the plan's child with its title (as approval
/// files them), matched exactly first and then ignoring case and spaces.
pub fn plan_outcome<'a>(
    plan_id: &str,
    steps: &'a [PlanStep],
    tasks: &'a [MissionTask],
) -> PlanOutcome<'a> {
    let children: Vec<&MissionTask> = tasks
        .iter()
        .filter(|t| t.parent_task_id.as_deref() == Some(plan_id) && !is_attempt(t))
        .collect();
    let mut taken = vec![false; children.len()];
    let mut matched: Vec<Option<&MissionTask>> = vec![None; steps.len()];
    for exact in [true, false] {
        for (i, step) in steps.iter().enumerate() {
            if matched[i].is_some() {
                continue;
            }
            let found = children.iter().enumerate().position(|(j, c)| {
                !taken[j]
                    && if exact {
                        c.title == step.title
                    } else {
                        normal(&c.title) == normal(&step.title)
                    }
            });
            if let Some(j) = found {
                taken[j] = true;
                matched[i] = Some(children[j]);
            }
        }
    }
    let steps_out = steps
        .iter()
        .zip(matched)
        .map(|(step, task)| outcome_of(step, task, tasks))
        .collect();
    let first_filed = children
        .iter()
        .filter_map(|c| c.created_at.as_deref())
        .min();
    let added_after = match first_filed {
        Some(first) => tasks
            .iter()
            .filter(|t| {
                is_deliverable(t)
                    && !is_attempt(t)
                    && t.parent_task_id.as_deref() != Some(plan_id)
                    && t.created_at.as_deref().is_some_and(|c| c > first)
            })
            .collect(),
        None => Vec::new(),
    };
    PlanOutcome {
        steps: steps_out,
        added_after,
    }
}

fn outcome_of<'a>(
    step: &'a PlanStep,
    task: Option<&'a MissionTask>,
    tasks: &'a [MissionTask],
) -> StepOutcome<'a> {
    let Some(task) = task else {
        return StepOutcome {
            step,
            task: None,
            attempts: 0,
            state: StepState::NotStarted,
            pr: None,
            cost: None,
            seconds: None,
        };
    };
    let retries: Vec<&MissionTask> = tasks
        .iter()
        .filter(|t| t.parent_task_id.as_deref() == Some(task.id.as_str()) && is_attempt(t))
        .collect();
    let runs: Vec<&MissionTask> = std::iter::once(task)
        .chain(retries.iter().copied())
        .collect();
    let workers: Vec<&WorkerSummary> = runs.iter().flat_map(|t| &t.workers).collect();
    let pr = workers.iter().find_map(|w| {
        let url = w.pr_url.clone().filter(|u| !u.trim().is_empty())?;
        Some((
            url,
            TaskPrStage::of(w.pr_lifecycle().as_ref(), w.merged_at.is_some()),
        ))
    });
    let costs: Vec<Usd> = runs.iter().filter_map(|t| t.cost()).collect();
    let seconds: Vec<i64> = workers
        .iter()
        .filter_map(|w| {
            let start = w.started_at.as_deref()?;
            let end = w.completed_at.as_deref()?;
            seconds_between_times(start, end)
        })
        .collect();
    StepOutcome {
        step,
        task: Some(task),
        attempts: runs.len(),
        state: state_of(&runs, pr.as_ref().map(|(_, s)| *s)),
        pr,
        cost: (!costs.is_empty()).then(|| costs.into_iter().sum()),
        seconds: (!seconds.is_empty()).then(|| seconds.into_iter().sum()),
    }
}

/// The best of a task and its retries: done beats in flight beats not started beats failed.
fn state_of(runs: &[&MissionTask], pr: Option<TaskPrStage>) -> StepState {
    let has = |s: TaskStatus| runs.iter().any(|t| t.status == s);
    let live = runs.iter().any(|t| {
        matches!(
            t.status,
            TaskStatus::Assigned | TaskStatus::InProgress | TaskStatus::Review
        ) || t.workers.iter().any(|w| w.status.is_live())
    });
    if has(TaskStatus::Completed) {
        match pr {
            Some(stage) if stage.is_open() => StepState::InFlight,
            _ => StepState::Done,
        }
    } else if live {
        StepState::InFlight
    } else if has(TaskStatus::Pending) {
        StepState::NotStarted
    } else if has(TaskStatus::Failed) {
        StepState::Failed
    } else if has(TaskStatus::Cancelled) {
        StepState::Cancelled
    } else {
        StepState::NotStarted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskClass, WorkerStatus};
    use crate::test_support::{task, worker};
    use serde_json::json;

    fn step(r: &str, title: &str) -> PlanStep {
        serde_json::from_value(json!({"ref": r, "title": title, "description": "d"})).unwrap()
    }

    fn child(id: &str, title: &str, status: TaskStatus, created: &str) -> MissionTask {
        MissionTask {
            title: title.into(),
            parent_task_id: Some("plan".into()),
            created_at: Some(created.into()),
            ..task(id, status)
        }
    }

    #[test]
    fn each_step_finds_its_task_and_where_it_stands() {
        let steps = [
            step("a", "Add the endpoint"),
            step("b", "Check the database"),
            step("c", "Document it"),
            step("d", "Load test"),
            step("e", "Never filed"),
        ];
        let mut merged = child(
            "t1",
            "Add the endpoint",
            TaskStatus::Completed,
            "2026-01-01T00:00:00Z",
        );
        let mut w = worker(
            WorkerStatus::Completed,
            Some("https://github.com/o/r/pull/4"),
            true,
        );
        w.started_at = Some("2026-01-01T00:00:00Z".into());
        w.completed_at = Some("2026-01-01T00:12:30Z".into());
        merged.workers = vec![w];
        merged.cost_usd = Some("1.250000".into());
        let mut awaiting = child(
            "t2",
            "check the database ",
            TaskStatus::Completed,
            "2026-01-01T00:00:00Z",
        );
        awaiting.workers = vec![worker(
            WorkerStatus::Completed,
            Some("https://github.com/o/r/pull/5"),
            false,
        )];
        let failed = child(
            "t3",
            "Document it",
            TaskStatus::Failed,
            "2026-01-01T00:00:00Z",
        );
        // A retry of the failed step runs now: the step is in flight, its attempts two.
        let mut retry = MissionTask {
            title: "[retry] Document it".into(),
            parent_task_id: Some("t3".into()),
            task_class: Some(TaskClass::Attempt),
            cost_usd: Some("0.500000".into()),
            ..task("t3r", TaskStatus::Assigned)
        };
        retry.workers = vec![worker(WorkerStatus::Running, None, false)];
        let queued = child(
            "t4",
            "Load test",
            TaskStatus::Pending,
            "2026-01-01T00:00:00Z",
        );
        let later = MissionTask {
            created_at: Some("2026-01-02T00:00:00Z".into()),
            ..task("x", TaskStatus::Pending)
        };
        let organizer = MissionTask {
            created_at: Some("2026-01-02T00:00:00Z".into()),
            task_class: Some(TaskClass::Bookkeeping),
            ..task("o", TaskStatus::Pending)
        };
        let tasks = [merged, awaiting, failed, retry, queued, later, organizer];
        let outcome = plan_outcome("plan", &steps, &tasks);
        let states: Vec<StepState> = outcome.steps.iter().map(|s| s.state).collect();
        assert_eq!(
            states,
            [
                StepState::Done,
                StepState::InFlight,
                StepState::InFlight,
                StepState::NotStarted,
                StepState::NotStarted
            ]
        );
        let first = &outcome.steps[0];
        assert_eq!(first.task.map(|t| t.id.as_str()), Some("t1"));
        assert_eq!(first.pr.as_ref().map(|p| p.1), Some(TaskPrStage::Merged));
        assert_eq!(first.cost, Some(Usd::from_cents(125)));
        assert_eq!(first.seconds, Some(750));
        assert_eq!(outcome.steps[1].task.map(|t| t.id.as_str()), Some("t2"));
        assert_eq!(outcome.steps[2].attempts, 2);
        assert_eq!(outcome.steps[2].cost, Some(Usd::from_cents(50)));
        assert!(outcome.steps[4].task.is_none());
        assert_eq!(
            outcome
                .added_after
                .iter()
                .map(|t| t.id.as_str())
                .collect::<Vec<_>>(),
            ["x"]
        );
        assert_eq!(outcome.summary(), "1 done · 2 in flight · 2 not started");
    }

    #[test]
    fn a_failed_step_with_nothing_going_counts_as_failed() {
        let steps = [step("a", "A")];
        let tasks = [child("t", "A", TaskStatus::Failed, "2026-01-01T00:00:00Z")];
        let outcome = plan_outcome("plan", &steps, &tasks);
        assert_eq!(outcome.steps[0].state, StepState::Failed);
        assert_eq!(outcome.summary(), "1 failed");
        assert!(outcome.added_after.is_empty());
    }
}
