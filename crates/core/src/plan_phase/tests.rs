use super::*;
use crate::client::ClientTaskContext;
use crate::enums::TaskClass;
use crate::test_support::{task, worker};
use crate::worker::PLAN_NOT_VALIDATED;
use serde_json::json;

fn client(id: &str, status: TaskStatus, result: serde_json::Value) -> ClientTask {
    serde_json::from_value(json!({
        "id": id, "title": "Mission: Checkout", "status": status.as_str(), "mode": "planning",
        "result": result,
    }))
    .unwrap()
}

fn with_plan() -> serde_json::Value {
    json!({"structuredOutput": {"plan": [{"ref": "a", "title": "A", "description": "d"}],
                                "summary": "s", "missionComplete": false}})
}

fn planning(id: &str, status: TaskStatus, created: &str) -> MissionTask {
    let mut t = task(id, status);
    t.mode = TaskMode::Planning;
    t.task_class = Some(TaskClass::Bookkeeping);
    t.created_at = Some(created.into());
    t
}

#[test]
fn execution_tasks_have_no_plan_phase() {
    let mut t = client("x", TaskStatus::Pending, json!(null));
    t.mode = TaskMode::Execution;
    assert_eq!(plan_phase(&t, &[]), None);
}

#[test]
fn waiting_then_generating_once_an_agent_runs() {
    let t = client("p", TaskStatus::Assigned, json!(null));
    let mut row = planning("p", TaskStatus::Assigned, "a");
    row.workers = vec![worker(WorkerStatus::Idle, None, false)];
    assert_eq!(
        plan_phase(&t, std::slice::from_ref(&row)),
        Some(PlanPhase::WaitingForWorker)
    );
    row.workers = vec![worker(WorkerStatus::Running, None, false)];
    assert_eq!(plan_phase(&t, &[row]), Some(PlanPhase::Generating));
}

#[test]
fn in_review_approved_and_replaced() {
    let t = client("p", TaskStatus::Completed, with_plan());
    let old = planning("p", TaskStatus::Completed, "2026-01-01T00:00:00Z");
    assert_eq!(
        plan_phase(&t, std::slice::from_ref(&old)),
        Some(PlanPhase::InReview)
    );

    let mut child = task("c", TaskStatus::Pending);
    child.parent_task_id = Some("p".into());
    let approved = [old.clone(), child.clone(), {
        let mut c2 = child.clone();
        c2.id = "c2".into();
        c2
    }];
    assert_eq!(
        plan_phase(&t, &approved),
        Some(PlanPhase::Approved { children: 2 })
    );

    let newer = planning("q", TaskStatus::Pending, "2026-01-02T00:00:00Z");
    assert_eq!(plan_phase(&t, &[old, newer]), Some(PlanPhase::Replaced));
}

#[test]
fn rejected_names_its_revision_and_feedback() {
    let mut t = client("p", TaskStatus::Completed, with_plan());
    t.context = Some(ClientTaskContext {
        plan_rejection: Some(PlanRejection {
            feedback: "Split the API step".into(),
            rejected_at: None,
            revision_task_id: Some("r".into()),
            step_comments: vec![],
        }),
        ..Default::default()
    });
    let tasks = [
        planning("p", TaskStatus::Completed, "2026-01-01T00:00:00Z"),
        planning("r", TaskStatus::Pending, "2026-01-02T00:00:00Z"),
    ];
    assert_eq!(
        plan_phase(&t, &tasks),
        Some(PlanPhase::Rejected {
            feedback: "Split the API step".into(),
            revision: Some("r".into())
        })
    );
}

#[test]
fn force_failed_carries_the_message_and_empty_plans_have_no_steps() {
    let t = client(
        "p",
        TaskStatus::Failed,
        json!({"error": PLAN_NOT_VALIDATED}),
    );
    assert_eq!(
        plan_phase(&t, &[]),
        Some(PlanPhase::Failed {
            error: Some(PLAN_NOT_VALIDATED.into())
        })
    );
    let empty = client(
        "p",
        TaskStatus::Completed,
        json!({"structuredOutput": {"plan": [], "summary": "done", "missionComplete": true}}),
    );
    assert_eq!(plan_phase(&empty, &[]), Some(PlanPhase::NoSteps));
}
