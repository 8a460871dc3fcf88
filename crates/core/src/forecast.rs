//! What approving a plan will cost, said before it is approved: the plan's steps times the
//! median cost of a finished deliverable task, from this mission's when it has finished at
//! least three, else from the workspace's. The inputs are plain numbers, so the server and
//! the dashboard say the same thing.
//!
//! Every step of a plan counts: approval files each one as a `work` task (Buildd's
//! approve-plan sets `taskClass: 'work'` whatever the step's `kind`). The basis counts
//! deliverables only — organizer runs, reviewer runs and aggregation are not what a step
//! will cost — and folds retries into the task they retried, so a task that took two
//! attempts cost what both did. A task whose workers reported no cost, or $0 (seat-based
//! accounts report no cost), is no evidence and is left out, as Buildd's own forecast does.

use crate::enums::{TaskMode, TaskStatus};
use crate::mission::MissionTask;
use crate::money::Usd;
use crate::plan_output::PlanStep;
use crate::progress::{is_attempt, is_deliverable};
use std::collections::HashMap;

/// Below this many finished tasks, a mission's own costs are too few to go by.
pub const MISSION_BASIS_MIN: usize = 3;

/// How many of a plan's steps will cost something: all of them.
pub fn steps_to_cost(plan: &[PlanStep]) -> usize {
    plan.len()
}

/// The middle cost; for an even count, the mean of the two middle ones (to the micro-dollar,
/// half away from zero). `None` for no costs.
pub fn median(costs: &[Usd]) -> Option<Usd> {
    let mut sorted = costs.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => {
            let (a, b) = (sorted[n / 2 - 1].micros(), sorted[n / 2].micros());
            let sum = i128::from(a) + i128::from(b);
            Some(Usd::from_micros(((sum + sum.signum()) / 2) as i64))
        }
    }
}

/// The cost of each finished deliverable among `tasks` that reported one: `cost_of` gives a
/// task's own cost (the sum of its workers), and each attempt's cost joins its root task's.
/// A task is finished when it or one of its attempts completed.
pub fn finished_deliverable_costs<'a, I>(
    tasks: I,
    cost_of: impl Fn(&MissionTask) -> Usd,
) -> Vec<Usd>
where
    I: Iterator<Item = &'a MissionTask> + Clone,
{
    let by_id: HashMap<&str, &MissionTask> = tasks.clone().map(|t| (t.id.as_str(), t)).collect();
    let root_of = |task: &'a MissionTask| -> &'a MissionTask {
        let mut current = task;
        for _ in 0..=by_id.len() {
            if !is_attempt(current) {
                break;
            }
            match current.parent_task_id.as_deref().and_then(|p| by_id.get(p)) {
                Some(parent) => current = parent,
                None => break,
            }
        }
        current
    };
    // Root id → (counted, finished, cost), in first-seen order.
    let mut order: Vec<&str> = Vec::new();
    let mut rows: HashMap<&str, (bool, bool, Usd)> = HashMap::new();
    for task in tasks {
        let root = root_of(task);
        let row = rows.entry(root.id.as_str()).or_insert_with(|| {
            order.push(root.id.as_str());
            // A standalone attempt (its parent elsewhere) counts like the work it retried.
            let counted = if is_attempt(root) {
                root.mode == TaskMode::Execution
            } else {
                is_deliverable(root)
            };
            (counted, false, Usd::ZERO)
        });
        row.1 |= task.status == TaskStatus::Completed;
        row.2 += cost_of(task);
    }
    order
        .into_iter()
        .filter_map(|id| {
            let (counted, finished, cost) = rows[id];
            (counted && finished && cost > Usd::ZERO).then_some(cost)
        })
        .collect()
}

/// Whose finished tasks the estimate goes by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Mission,
    Workspace,
}

/// What an estimate rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Basis {
    pub scope: Scope,
    /// Finished tasks with a known cost.
    pub tasks: usize,
    pub median: Usd,
}

/// The forecast the Plan Review Panel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostForecast {
    /// `None`: no finished task has reported a cost, so there is no number to give.
    pub estimate: Option<Usd>,
    pub basis: Option<Basis>,
    /// "About $4.20 for 3 steps, from 12 finished tasks of this mission at a median $1.40".
    pub text: String,
    /// Set when approving would take the mission to its budget or past it.
    pub warning: Option<String>,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Estimates a plan of `steps` steps for a mission that spent `spend` of `budget`.
/// `mission_costs` are the mission's finished deliverable costs, `workspace_costs` the
/// workspace's (the mission's own included), as [`finished_deliverable_costs`] gives them.
pub fn forecast(
    steps: usize,
    mission_costs: &[Usd],
    workspace_costs: &[Usd],
    spend: Usd,
    budget: Option<Usd>,
) -> CostForecast {
    let (scope, costs) = if mission_costs.len() >= MISSION_BASIS_MIN {
        (Scope::Mission, mission_costs)
    } else if workspace_costs.len() > mission_costs.len() {
        (Scope::Workspace, workspace_costs)
    } else {
        // A workspace list that holds no more than the mission's own: the mission's few
        // costs are all there is.
        (Scope::Mission, mission_costs)
    };
    let already_over = budget
        .filter(|&b| spend >= b)
        .map(|b| format!("The mission has already spent {spend} of its {b} budget"));
    if steps == 0 {
        return CostForecast {
            estimate: Some(Usd::ZERO),
            basis: None,
            text: "No steps to estimate".into(),
            warning: already_over,
        };
    }
    let Some(median) = median(costs) else {
        return CostForecast {
            estimate: None,
            basis: None,
            text: "No estimate yet: no finished task of this mission or workspace has reported \
                   a cost"
                .into(),
            warning: already_over,
        };
    };
    let estimate = median.times(steps as u64);
    let whose = match scope {
        Scope::Mission => "of this mission",
        Scope::Workspace => "in this workspace",
    };
    let at = if costs.len() == 1 {
        format!("at {median}")
    } else {
        format!("at a median {median}")
    };
    let text = format!(
        "About {estimate} for {}, from {} {whose} {at}",
        plural(steps, "step", "steps"),
        plural(costs.len(), "finished task", "finished tasks"),
    );
    let warning = already_over.or_else(|| {
        let after = spend + estimate;
        budget
            .filter(|&b| after >= b)
            .map(|b| format!("Would take the mission to {after} of its {b} budget"))
    });
    CostForecast {
        estimate: Some(estimate),
        basis: Some(Basis {
            scope,
            tasks: costs.len(),
            median,
        }),
        text,
        warning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::TaskClass;
    use crate::test_support::task;

    fn usd(cents: i64) -> Usd {
        Usd::from_cents(cents)
    }

    fn costs(cents: &[i64]) -> Vec<Usd> {
        cents.iter().map(|&c| usd(c)).collect()
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&costs(&[300, 100, 200])), Some(usd(200)));
        assert_eq!(median(&costs(&[400, 100, 200, 300])), Some(usd(250)));
        assert_eq!(
            median(&[Usd::from_micros(1), Usd::from_micros(2)]),
            Some(Usd::from_micros(2))
        );
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn a_mission_with_three_finished_tasks_goes_by_its_own() {
        let f = forecast(
            3,
            &costs(&[100, 140, 200]),
            &costs(&[100, 140, 200, 900]),
            Usd::ZERO,
            None,
        );
        assert_eq!(f.estimate, Some(usd(420)));
        assert_eq!(
            f.basis,
            Some(Basis {
                scope: Scope::Mission,
                tasks: 3,
                median: usd(140)
            })
        );
        assert_eq!(
            f.text,
            "About $4.20 for 3 steps, from 3 finished tasks of this mission at a median $1.40"
        );
        assert_eq!(f.warning, None);
    }

    #[test]
    fn a_small_mission_falls_back_to_the_workspace() {
        let workspace = costs(&[100, 120, 140, 160, 500, 100, 140, 150, 130, 140, 200, 300]);
        let f = forecast(3, &costs(&[500, 100]), &workspace, Usd::ZERO, None);
        assert_eq!(
            f.basis.map(|b| (b.scope, b.tasks)),
            Some((Scope::Workspace, 12))
        );
        assert_eq!(
            f.text,
            "About $4.20 for 3 steps, from 12 finished tasks in this workspace at a median $1.40"
        );
    }

    #[test]
    fn an_empty_workspace_leaves_the_mission_s_few_costs_or_nothing() {
        let f = forecast(1, &costs(&[250]), &[], Usd::ZERO, None);
        assert_eq!(
            f.text,
            "About $2.50 for 1 step, from 1 finished task of this mission at $2.50"
        );
        let none = forecast(2, &[], &[], Usd::ZERO, Some(usd(500)));
        assert_eq!(none.estimate, None);
        assert_eq!(none.basis, None);
        assert_eq!(
            none.text,
            "No estimate yet: no finished task of this mission or workspace has reported a cost"
        );
        assert_eq!(none.warning, None);
    }

    #[test]
    fn a_plan_that_would_pass_the_budget_is_warned_of() {
        let f = forecast(3, &costs(&[140, 140, 140]), &[], usd(140), Some(usd(500)));
        assert_eq!(
            f.warning.as_deref(),
            Some("Would take the mission to $5.60 of its $5.00 budget")
        );
        let within = forecast(3, &costs(&[140, 140, 140]), &[], usd(50), Some(usd(500)));
        assert_eq!(within.warning, None);
    }

    #[test]
    fn reaching_the_budget_exactly_is_warned_of_since_it_exhausts_the_mission() {
        let f = forecast(3, &costs(&[100, 100, 100]), &[], usd(200), Some(usd(500)));
        assert_eq!(
            f.warning.as_deref(),
            Some("Would take the mission to $5.00 of its $5.00 budget")
        );
    }

    #[test]
    fn a_mission_already_at_its_budget_says_so_even_without_an_estimate() {
        let f = forecast(2, &[], &[], usd(600), Some(usd(500)));
        assert_eq!(
            f.warning.as_deref(),
            Some("The mission has already spent $6.00 of its $5.00 budget")
        );
        assert_eq!(
            forecast(0, &[], &[], usd(10), None).text,
            "No steps to estimate"
        );
    }

    #[test]
    fn finished_deliverables_fold_their_retries_and_skip_housekeeping() {
        let done = task("done", TaskStatus::Completed);
        let mut retried = task("retried", TaskStatus::Failed);
        retried.title = "Flaky".into();
        let mut retry = task("retry", TaskStatus::Completed);
        retry.task_class = Some(TaskClass::Attempt);
        retry.parent_task_id = Some("retried".into());
        let mut organizer = task("organizer", TaskStatus::Completed);
        organizer.task_class = Some(TaskClass::Bookkeeping);
        organizer.mode = TaskMode::Planning;
        let running = task("running", TaskStatus::InProgress);
        let unpriced = task("unpriced", TaskStatus::Completed);
        let failed = task("failed", TaskStatus::Failed);
        let tasks = [done, retried, retry, organizer, running, unpriced, failed];
        let cost = |t: &MissionTask| match t.id.as_str() {
            "done" => usd(100),
            "retried" => usd(50),
            "retry" => usd(70),
            "organizer" | "running" | "failed" => usd(30),
            _ => Usd::ZERO,
        };
        assert_eq!(
            finished_deliverable_costs(tasks.iter(), cost),
            costs(&[100, 120])
        );
    }

    #[test]
    fn every_plan_step_costs() {
        let step = |r: &str| PlanStep {
            step_ref: r.into(),
            title: r.into(),
            description: "d".into(),
            depends_on: vec![],
            base_branch: None,
            role_slug: None,
            output_requirement: None,
            priority: None,
            kind: Some(crate::TaskKind::Coordination),
            complexity: None,
            required_capabilities: vec![],
        };
        assert_eq!(steps_to_cost(&[step("a"), step("b")]), 2);
    }
}
