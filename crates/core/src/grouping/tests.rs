use super::*;
use crate::enums::{TaskClass, TaskMode, TaskStatus, WorkerStatus};
use crate::progress::compute_progress;
use crate::test_support::{task, worker};

fn mission(status: MissionStatus) -> Mission {
    serde_json::from_value(serde_json::json!({
        "id": "m", "teamId": "t", "title": "M", "status": status.as_str(),
        "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z"
    }))
    .unwrap()
}

fn live(mut t: MissionTask) -> MissionTask {
    t.workers.push(worker(WorkerStatus::Running, None, false));
    t
}

fn group(m: &Mission, tasks: &[MissionTask], next: Option<&str>) -> MissionGroup {
    let p = compute_progress(&m.status, tasks);
    mission_group(m, tasks, &p, next)
}

#[test]
fn terminal_and_paused_missions() {
    assert_eq!(
        group(&mission(MissionStatus::Completed), &[], None),
        MissionGroup::Completed
    );
    // Buildd left archived missions in "awaiting review" or "needs attention".
    assert_eq!(
        group(&mission(MissionStatus::Archived), &[], None),
        MissionGroup::Completed
    );
    assert_eq!(
        group(&mission(MissionStatus::Paused), &[], None),
        MissionGroup::Paused
    );
    let mut held = mission(MissionStatus::Active);
    held.is_held = true;
    assert_eq!(group(&held, &[], None), MissionGroup::Paused);
}

#[test]
fn a_plan_in_review_or_finished_work_awaits_review() {
    let mut plan = task("p", TaskStatus::Completed);
    plan.mode = TaskMode::Planning;
    plan.task_class = Some(TaskClass::Bookkeeping);
    let m = mission(MissionStatus::Active);
    assert_eq!(
        group(&m, &[crate::test_support::with_plan(plan)], None),
        MissionGroup::AwaitingReview
    );
    assert_eq!(
        group(&m, &[task("a", TaskStatus::Completed)], None),
        MissionGroup::AwaitingReview
    );
    let p = compute_progress(&m.status, &[task("a", TaskStatus::Completed)]);
    assert_eq!(
        mission_state(&m, &[task("a", TaskStatus::Completed)], &p),
        MissionState::ReadyForReview
    );
}

#[test]
fn live_workers_mean_running() {
    let m = mission(MissionStatus::Active);
    let tasks = [
        live(task("a", TaskStatus::Assigned)),
        task("b", TaskStatus::Pending),
    ];
    assert_eq!(group(&m, &tasks, None), MissionGroup::Running);
}

#[test]
fn failures_and_stalls_need_attention() {
    let m = mission(MissionStatus::Active);
    let tasks = [
        task("a", TaskStatus::Failed),
        task("b", TaskStatus::Completed),
    ];
    assert_eq!(
        group(&m, &tasks, Some("2026-01-01T01:00:00.000Z")),
        MissionGroup::NeedsAttention
    );
    let p = compute_progress(&m.status, &tasks);
    assert_eq!(health(&m, &p), Health::Failing);
    let stalled = [task("a", TaskStatus::Pending)];
    let p = compute_progress(&m.status, &stalled);
    assert_eq!(health(&m, &p), Health::Stalled);
    assert_eq!(group(&m, &stalled, None), MissionGroup::NeedsAttention);
}

#[test]
fn a_waiting_mission_with_a_check_in_is_scheduled() {
    let m = mission(MissionStatus::Active);
    assert_eq!(
        group(&m, &[], Some("2026-01-01T01:00:00.000Z")),
        MissionGroup::Scheduled
    );
    assert_eq!(group(&m, &[], None), MissionGroup::NeedsAttention);
}

#[test]
fn blocked_by_another_mission() {
    let mut m = mission(MissionStatus::Active);
    m.depends_on_mission_id = Some("other".into());
    let p = compute_progress(&m.status, &[]);
    assert_eq!(health(&m, &p), Health::Blocked);
    assert_eq!(mission_state(&m, &[], &p), MissionState::Blocked);
}

#[test]
fn groups_are_listed_in_order() {
    let labels: Vec<_> = MissionGroup::ALL.iter().map(|g| g.label()).collect();
    assert_eq!(
        labels,
        [
            "Awaiting review",
            "Running",
            "Needs attention",
            "Scheduled",
            "Paused",
            "Completed"
        ]
    );
}

#[test]
fn health_is_shown_only_where_it_adds_something() {
    assert_eq!(health_beside(MissionState::Failing, Health::Failing), None);
    assert_eq!(health_beside(MissionState::Paused, Health::Stalled), None);
    assert_eq!(
        health_beside(MissionState::Running, Health::Failing),
        Some(Health::Failing)
    );
    assert_eq!(
        health_beside(MissionState::Active, Health::Stalled),
        Some(Health::Stalled)
    );
    assert_eq!(health_beside(MissionState::Active, Health::Nominal), None);
}

#[test]
fn the_lean_client_mission_groups_like_the_full_one() {
    let full = mission(MissionStatus::Active);
    let lean: crate::client::ClientMission =
        serde_json::from_value(serde_json::to_value(&full).unwrap()).unwrap();
    let tasks = [task("a", TaskStatus::Failed)];
    let p = compute_progress(&full.status, &tasks);
    assert_eq!(
        mission_state(&full, &tasks, &p),
        mission_state(&lean, &tasks, &p)
    );
    assert_eq!(
        mission_group(&full, &tasks, &p, None),
        mission_group(&lean, &tasks, &p, None)
    );
}
