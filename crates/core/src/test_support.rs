//! Builders for the rules' unit tests.

use crate::enums::{TaskClass, TaskMode, TaskStatus, WorkerStatus};
use crate::mission::{MissionTask, WorkerSummary};

/// A deliverable execution task titled "Task <id>", with no worker.
pub fn task(id: &str, status: TaskStatus) -> MissionTask {
    MissionTask {
        id: id.into(),
        title: format!("Task {id}"),
        status,
        priority: None,
        role_slug: None,
        created_at: None,
        result: None,
        updated_at: None,
        kind: None,
        mode: TaskMode::Execution,
        category: None,
        parent_task_id: None,
        creation_source: None,
        task_class: Some(TaskClass::Work),
        depends_on: vec![],
        workers: vec![],
        cost_usd: None,
    }
}

/// A worker in `status`, with a PR when `pr` is given, merged or not.
pub fn worker(status: WorkerStatus, pr: Option<&str>, merged: bool) -> WorkerSummary {
    WorkerSummary {
        pr_last_checked_at: None,
        id: "w".into(),
        status,
        pr_url: pr.map(str::to_string),
        merged_at: merged.then(|| "2026-11-29T10:00:00.000Z".to_string()),
        pr_number: None,
        pr_lifecycle_status: None,
        started_at: None,
        completed_at: None,
        current_action: None,
        waiting_for: None,
    }
}

/// `t` with a result whose plan has one step, as a planning run that planned returns.
pub fn with_plan(mut t: MissionTask) -> MissionTask {
    t.result = Some(Some(
        serde_json::from_value(serde_json::json!({
            "structuredOutput": {"plan": [{"ref": "a", "title": "A", "description": "d"}],
                                 "summary": "One step", "missionComplete": false}
        }))
        .unwrap(),
    ));
    t
}

/// A check run `name` on commit `sha`, with no log address.
pub fn check_run(
    name: &str,
    sha: &str,
    status: &str,
    conclusion: Option<&str>,
) -> crate::pull_request::CheckRun {
    crate::pull_request::CheckRun {
        name: name.into(),
        head_sha: sha.into(),
        status: status.into(),
        conclusion: conclusion.map(Into::into),
        details_url: None,
    }
}
