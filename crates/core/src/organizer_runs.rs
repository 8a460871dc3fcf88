//! Organizer runs as people read them: each run labelled by what started it.

use crate::{CheckinOutcome, TaskStatus, TriggerSource};
use serde::{Deserialize, Serialize};

/// How a run's `context.triggerSource` reads in the runs list. `trigger_task` is the title of
/// the task whose end started an `event` run, and whether that task was itself an organizer
/// run.
pub fn organizer_run_label(
    source: Option<&TriggerSource>,
    trigger_task: Option<(&str, bool)>,
) -> String {
    match (source, trigger_task) {
        (Some(TriggerSource::Event), Some((_, true))) => {
            "after the last organizer run finished".into()
        }
        (Some(TriggerSource::Event), Some((title, false))) => format!("after {title} finished"),
        (None | Some(TriggerSource::Other(_)), _) => UNLABELLED.into(),
        (Some(known), _) => known.label().into_owned(),
    }
}

/// The label of a run whose start was not recorded.
pub const UNLABELLED: &str = "organizer run";

/// Each organizer run (planning task) of a mission numbered from 1 in the order it was
/// created, so a list can tell runs that share the mission's title apart.
pub fn run_numbers(tasks: &[crate::MissionTask]) -> std::collections::HashMap<String, usize> {
    let mut runs: Vec<&crate::MissionTask> = tasks
        .iter()
        .filter(|t| t.mode == crate::TaskMode::Planning)
        .collect();
    runs.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
    runs.into_iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i + 1))
        .collect()
}

/// One organizer run of `GET /api/missions/{id}/runs`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrganizerRun {
    pub task_id: String,
    pub title: String,
    pub status: TaskStatus,
    pub created_at: String,
    pub trigger_source: Option<TriggerSource>,
    pub trigger_task_id: Option<String>,
    pub label: String,
}

/// One check-in: it started the organizer, or deferred and said why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckIn {
    pub at: String,
    pub outcome: CheckinOutcome,
    pub reason: Option<String>,
    pub text: String,
    pub task_id: Option<String>,
}

/// `GET /api/missions/{id}/runs`: both lists newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissionRuns {
    pub runs: Vec<OrganizerRun>,
    pub check_ins: Vec<CheckIn>,
}

/// `POST /api/missions/{id}/run`: the organizer task it opened (201) or found running, or
/// why it opened none (`task: null` with the reason's flag).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAnswer {
    pub task: Option<crate::task::Task>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub deduped: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub skipped_blocked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_reason: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trigger_has_its_label() {
        assert_eq!(
            organizer_run_label(
                Some(&TriggerSource::Event),
                Some(("Add the export button", false))
            ),
            "after Add the export button finished"
        );
        assert_eq!(
            organizer_run_label(Some(&TriggerSource::Event), None),
            "after work finished"
        );
        assert_eq!(
            organizer_run_label(Some(&TriggerSource::Event), Some(("Mission: X", true))),
            "after the last organizer run finished"
        );
        for (source, label) in [
            ("wake:dependency_met", "dependency met"),
            ("wake:resumed", "resumed"),
            ("wake:armed", "armed"),
            ("wake:budget_raised", "budget raised"),
            ("wake:pr_merged", "PR merged"),
            ("wake:owner_note", "after your note"),
            ("wake:owner_answer", "after your answer"),
            ("backstop", "stuck check"),
            ("manual", "you ran it"),
            ("cron", "check-in"),
            ("auto_retry", "retry"),
        ] {
            assert_eq!(organizer_run_label(Some(&source.into()), None), label);
        }
        assert_eq!(organizer_run_label(None, None), "organizer run");
        assert_eq!(
            organizer_run_label(Some(&"wake:something_else".into()), None),
            "organizer run"
        );
    }

    #[test]
    fn organizer_runs_are_numbered_in_the_order_they_were_created() {
        use crate::test_support::task;
        use crate::{TaskMode, TaskStatus};
        let run = |id: &str, at: &str| crate::MissionTask {
            mode: TaskMode::Planning,
            created_at: Some(at.into()),
            ..task(id, TaskStatus::Completed)
        };
        let tasks = [
            run("late", "2026-11-30T10:00:00Z"),
            task("work", TaskStatus::Pending),
            run("early", "2026-11-29T10:00:00Z"),
        ];
        let numbers = run_numbers(&tasks);
        assert_eq!(numbers.get("early"), Some(&1));
        assert_eq!(numbers.get("late"), Some(&2));
        assert_eq!(numbers.get("work"), None, "work is not an organizer run");
    }
}
