//! When a mission's work is done: every deliverable task completed with its PR merged (or no
//! PR needed) and nothing still running. Says why not otherwise. A mission that requires
//! review does not close by itself: it waits, dormant, for a person to close it.

use crate::dependencies::has_open_pr;
use crate::enums::{MissionStatus, TaskStatus};
use crate::mission::MissionTask;
use crate::plan::plan_in_review;
use crate::progress::is_deliverable;

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `Ok` when the mission's work is done; otherwise every reason it is not, in words
/// ("2 tasks still open", "PR #41 not merged").
pub fn completion_check(tasks: &[MissionTask]) -> Result<(), Vec<String>> {
    let mut why = Vec::new();
    let open = tasks.iter().filter(|t| !t.status.is_terminal()).count();
    if open > 0 {
        why.push(count(open, "task still open", "tasks still open"));
    }
    if plan_in_review(tasks).is_some() {
        why.push("a plan waits for review".into());
    }
    let deliverables: Vec<&MissionTask> = tasks
        .iter()
        .filter(|t| is_deliverable(t) && t.status != TaskStatus::Cancelled)
        .collect();
    let failed = deliverables
        .iter()
        .filter(|t| t.status == TaskStatus::Failed)
        .count();
    if failed > 0 {
        why.push(count(failed, "task failed", "tasks failed"));
    }
    for t in deliverables
        .iter()
        .filter(|t| t.status == TaskStatus::Completed && has_open_pr(&t.workers))
    {
        let number = t.workers.iter().find_map(|w| w.pr_number);
        why.push(match number {
            Some(n) => format!("PR #{n} not merged"),
            None => format!("the PR of \"{}\" not merged", t.title),
        });
    }
    if deliverables.is_empty() && why.is_empty() {
        why.push("no deliverable tasks yet".into());
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(why)
    }
}

/// "Not complete yet: 2 tasks still open, PR #41 not merged".
pub fn why_not_text(why: &[String]) -> String {
    format!("Not complete yet: {}", why.join(", "))
}

/// Done, but waiting for a person to close it: an active mission that requires review whose
/// work is complete.
pub fn is_dormant(status: &MissionStatus, requires_review: bool, tasks: &[MissionTask]) -> bool {
    *status == MissionStatus::Active && requires_review && completion_check(tasks).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::{TaskClass, TaskMode, WorkerStatus};
    use crate::test_support::{task, worker};

    fn with_pr(id: &str, number: i64, merged: bool) -> MissionTask {
        let mut t = task(id, TaskStatus::Completed);
        let mut w = worker(WorkerStatus::Completed, Some("https://x/pull/1"), merged);
        w.pr_number = Some(number);
        t.workers = vec![w];
        t
    }

    #[test]
    fn merged_or_pr_free_deliverables_complete_a_mission() {
        let tasks = [
            with_pr("a", 1, true),
            task("b", TaskStatus::Completed),
            task("c", TaskStatus::Cancelled),
        ];
        assert_eq!(completion_check(&tasks), Ok(()));
    }

    #[test]
    fn open_work_failures_and_unmerged_prs_say_why() {
        let tasks = [
            task("a", TaskStatus::Assigned),
            task("b", TaskStatus::Pending),
            with_pr("c", 41, false),
            task("d", TaskStatus::Failed),
        ];
        let why = completion_check(&tasks).unwrap_err();
        assert_eq!(
            why_not_text(&why),
            "Not complete yet: 2 tasks still open, 1 task failed, PR #41 not merged"
        );
    }

    #[test]
    fn housekeeping_alone_or_nothing_is_not_done() {
        let mut organizer = task("o", TaskStatus::Completed);
        organizer.mode = TaskMode::Planning;
        organizer.task_class = Some(TaskClass::Bookkeeping);
        organizer.result = Some(Some(
            serde_json::from_value(serde_json::json!({"structuredOutput":
                {"plan": [], "summary": "s", "missionComplete": false}}))
            .unwrap(),
        ));
        assert_eq!(
            completion_check(&[organizer]),
            Err(vec!["no deliverable tasks yet".to_string()])
        );
        assert_eq!(
            completion_check(&[task("c", TaskStatus::Cancelled)]),
            Err(vec!["no deliverable tasks yet".to_string()])
        );
    }

    #[test]
    fn a_mission_that_requires_review_waits_dormant() {
        let done = [task("a", TaskStatus::Completed)];
        assert!(is_dormant(&MissionStatus::Active, true, &done));
        assert!(!is_dormant(&MissionStatus::Active, false, &done));
        assert!(!is_dormant(&MissionStatus::Completed, true, &done));
        assert!(!is_dormant(
            &MissionStatus::Active,
            true,
            &[task("a", TaskStatus::Pending)]
        ));
    }
}
