//! The plan-review phase, derived and never stored: a planning task that completed with a
//! plan, has no children yet, and that no later planning run of the same mission has
//! superseded. When the task's result is not at hand (Buildd's mission list omits it), it
//! is not known to carry a plan, so it is not in review: [`plan_to_confirm`] names the task
//! whose result to read.

use crate::enums::{TaskMode, TaskStatus};
use crate::mission::MissionTask;

fn created(task: &MissionTask) -> &str {
    task.created_at
        .as_deref()
        .or(task.updated_at.as_deref())
        .unwrap_or("")
}

/// The mission's newest organizer (planning) run.
pub fn newest_run(tasks: &[MissionTask]) -> Option<&MissionTask> {
    tasks
        .iter()
        .filter(|t| t.mode == TaskMode::Planning)
        .max_by(|a, b| created(a).cmp(created(b)))
}

/// The newest planning run, when it completed and nothing was filed from it yet: the one
/// plan that may be in review, whether or not its result is at hand.
pub fn finished_unfiled(tasks: &[MissionTask]) -> Option<&MissionTask> {
    let newest_planning = newest_run(tasks)?;
    let has_children = tasks
        .iter()
        .any(|t| t.parent_task_id.as_deref() == Some(newest_planning.id.as_str()));
    (newest_planning.status == TaskStatus::Completed && !has_children).then_some(newest_planning)
}

/// The mission's plan awaiting review, if any: only one whose result shows its steps.
pub fn plan_in_review(tasks: &[MissionTask]) -> Option<&MissionTask> {
    finished_unfiled(tasks).filter(|t| {
        t.result()
            .and_then(|r| r.structured_output.as_ref())
            .and_then(|o| o.get("plan"))
            .and_then(|p| p.as_array())
            .is_some_and(|steps| !steps.is_empty())
    })
}

/// The summary of a newest run that finished with an empty plan and did not propose
/// completion: the organizer planned nothing, and the mission waits for a note, Run or a
/// check-in.
pub fn planned_nothing(tasks: &[MissionTask]) -> Option<&str> {
    let output = finished_unfiled(tasks)?
        .result()?
        .structured_output
        .as_ref()?;
    let empty = output["plan"].as_array().is_some_and(|p| p.is_empty());
    let proposed = output["missionComplete"].as_bool() == Some(true);
    (empty && !proposed).then(|| output["summary"].as_str().unwrap_or(""))
}

/// The finished planning run that may hold a plan in review but came without its result
/// (Buildd's mission list omits the field): read the task to know.
pub fn plan_to_confirm(tasks: &[MissionTask]) -> Option<&MissionTask> {
    finished_unfiled(tasks).filter(|t| t.result.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::TaskClass;
    use crate::test_support::with_plan;

    fn planning(id: &str, status: TaskStatus, created: &str) -> MissionTask {
        let mut t = crate::test_support::task(id, status);
        t.mode = TaskMode::Planning;
        t.task_class = Some(TaskClass::Bookkeeping);
        t.created_at = Some(created.into());
        t
    }

    #[test]
    fn a_completed_plan_without_children_is_in_review() {
        let tasks = [with_plan(planning(
            "p",
            TaskStatus::Completed,
            "2026-01-01T00:00:00.000Z",
        ))];
        assert_eq!(plan_in_review(&tasks).map(|t| t.id.as_str()), Some("p"));
        assert!(plan_to_confirm(&tasks).is_none());
    }

    #[test]
    fn a_run_without_its_result_is_not_claimed_but_named_to_read() {
        let tasks = [planning(
            "p",
            TaskStatus::Completed,
            "2026-01-01T00:00:00.000Z",
        )];
        assert!(plan_in_review(&tasks).is_none());
        assert_eq!(plan_to_confirm(&tasks).map(|t| t.id.as_str()), Some("p"));
        assert!(plan_to_confirm(&[planning("p", TaskStatus::Assigned, "a")]).is_none());
    }

    #[test]
    fn a_run_that_returned_no_steps_is_not() {
        let mut run = planning("p", TaskStatus::Completed, "a");
        run.result = Some(Some(serde_json::from_value(serde_json::json!({
            "structuredOutput": {"plan": [], "summary": "Nothing to do", "missionComplete": false}
        })).unwrap()));
        assert!(plan_in_review(&[run.clone()]).is_none());
        run.result = Some(Some(
            serde_json::from_value(serde_json::json!({
                "structuredOutput": {"plan": [{"ref": "a", "title": "A", "description": "d"}],
                                     "summary": "One step", "missionComplete": false}
            }))
            .unwrap(),
        ));
        assert!(plan_in_review(&[run.clone()]).is_some());
        // A result known to be null is not a plan, nor one to read again.
        run.result = Some(None);
        assert!(plan_in_review(&[run.clone()]).is_none());
        assert!(plan_to_confirm(&[run]).is_none());
    }

    #[test]
    fn an_approved_plan_is_not() {
        let mut child = planning("c", TaskStatus::Pending, "2026-01-01T00:00:01.000Z");
        child.mode = TaskMode::Execution;
        child.parent_task_id = Some("p".into());
        let tasks = [
            planning("p", TaskStatus::Completed, "2026-01-01T00:00:00.000Z"),
            child,
        ];
        assert!(plan_in_review(&tasks).is_none());
    }

    #[test]
    fn a_running_or_failed_planner_is_not_and_a_newer_run_supersedes() {
        assert!(plan_in_review(&[planning("p", TaskStatus::Assigned, "a")]).is_none());
        assert!(plan_in_review(&[planning("p", TaskStatus::Failed, "a")]).is_none());
        let tasks = [
            planning("old", TaskStatus::Completed, "2026-01-01T00:00:00.000Z"),
            planning("revised", TaskStatus::Pending, "2026-01-02T00:00:00.000Z"),
        ];
        assert!(plan_in_review(&tasks).is_none());
    }
}
