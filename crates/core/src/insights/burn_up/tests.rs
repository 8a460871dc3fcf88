use super::*;
use crate::enums::{TaskClass, WorkerStatus};
use crate::insights::events::{task_events, PrEvents};
use crate::insights::ms_of;
use crate::progress::compute_progress;
use crate::test_support::{task, worker};
use crate::MissionStatus;

fn at(hm: &str) -> String {
    format!("2026-11-29T{hm}:00Z")
}

fn t(hm: &str) -> i64 {
    ms_of(&at(hm)).unwrap()
}

fn row(id: &str, class: TaskClass, status: TaskStatus) -> TaskEvents {
    TaskEvents {
        id: id.into(),
        title: format!("Task {id}"),
        class,
        mode: TaskMode::Execution,
        status,
        parent_task_id: Some("plan".into()),
        depends_on: vec![],
        created_at: None,
        claimed_at: None,
        finished_at: None,
        live: false,
        pr: None,
        cost_usd: None,
    }
}

fn times(
    mut r: TaskEvents,
    created: &str,
    claimed: Option<&str>,
    done: Option<&str>,
) -> TaskEvents {
    r.created_at = Some(at(created));
    r.claimed_at = claimed.map(at);
    r.finished_at = done.map(at);
    r
}

fn mission() -> Vec<TaskEvents> {
    let mut plan = times(
        row("plan", TaskClass::Bookkeeping, TaskStatus::Completed),
        "09:00",
        Some("09:01"),
        Some("09:10"),
    );
    plan.mode = TaskMode::Planning;
    plan.parent_task_id = None;
    let mut a = times(
        row("a", TaskClass::Work, TaskStatus::Completed),
        "10:00",
        Some("10:05"),
        Some("10:30"),
    );
    a.pr = Some(PrEvents {
        number: Some(7),
        opened_at: Some(at("10:30")),
        merged_at: Some(at("11:00")),
    });
    let b = times(
        row("b", TaskClass::Work, TaskStatus::Failed),
        "10:00",
        Some("10:10"),
        Some("10:20"),
    );
    let mut retry = times(
        row("b-retry", TaskClass::Attempt, TaskStatus::Completed),
        "10:25",
        Some("10:40"),
        Some("11:30"),
    );
    retry.parent_task_id = Some("b".into());
    let c = times(
        row("c", TaskClass::Work, TaskStatus::Pending),
        "12:00",
        None,
        None,
    );
    vec![plan, a, b, retry, c]
}

fn point(hm: &str, counts: [u32; 5]) -> BurnUpPoint {
    let [done, awaiting_merge, in_flight, failed, not_started] = counts;
    BurnUpPoint {
        at_ms: t(hm),
        done,
        awaiting_merge,
        in_flight,
        failed,
        not_started,
    }
}

#[test]
fn a_worked_mission_steps_at_every_move() {
    let check_in = CheckIn {
        at: at("12:30"),
        outcome: "deferred".into(),
        reason: Some("open_work".into()),
        text: "deferred: open work (1 task)".into(),
        task_id: None,
    };
    let b = burn_up(&mission(), &[check_in], t("13:00"));
    // [done, awaiting merge, in flight, failed, not started]
    assert_eq!(
        b.points,
        [
            point("10:00", [0, 0, 0, 0, 2]),
            point("10:05", [0, 0, 1, 0, 1]),
            point("10:10", [0, 0, 2, 0, 0]),
            point("10:20", [0, 0, 1, 1, 0]),
            // The retry is filed: the deliverable waits again rather than failed.
            point("10:25", [0, 0, 1, 0, 1]),
            point("10:30", [0, 1, 0, 0, 1]),
            point("10:40", [0, 1, 1, 0, 0]),
            point("11:00", [1, 0, 1, 0, 0]),
            point("11:30", [2, 0, 0, 0, 0]),
            point("12:00", [2, 0, 0, 0, 1]),
            point("13:00", [2, 0, 0, 0, 1]),
        ]
    );
    assert_eq!(
        b.markers,
        [
            Marker {
                at_ms: t("10:00"),
                kind: MarkerKind::PlanApproved,
                label: "Plan approved: Task plan".into(),
                task_id: Some("plan".into()),
            },
            Marker {
                at_ms: t("12:30"),
                kind: MarkerKind::CheckIn,
                label: "Check-in: deferred: open work (1 task)".into(),
                task_id: None,
            },
        ]
    );
    assert_eq!(b.at(t("10:50")), Some(&point("10:40", [0, 1, 1, 0, 0])));
    assert_eq!(b.at(t("09:00")), None);
    assert_eq!(
        b.describe(),
        "Over 3h: 2 of 3 done, 0 awaiting merge, 0 in flight, 0 failed, 1 not started. \
         1 plan approval marked."
    );
}

#[test]
fn a_cancelled_deliverable_leaves_the_scope_when_cancelled() {
    let d = times(
        row("d", TaskClass::Work, TaskStatus::Cancelled),
        "10:00",
        None,
        Some("11:00"),
    );
    let b = burn_up(&[d], &[], t("11:00"));
    assert_eq!(
        b.points,
        [
            point("10:00", [0, 0, 0, 0, 1]),
            point("11:00", [0, 0, 0, 0, 0])
        ]
    );
}

#[test]
fn nothing_and_one_task() {
    let empty = burn_up(&[], &[], t("12:00"));
    assert_eq!(empty, BurnUp::default());
    assert_eq!(empty.describe(), "No deliverables yet.");
    let one = times(
        row("a", TaskClass::Work, TaskStatus::Pending),
        "10:00",
        None,
        None,
    );
    assert_eq!(
        burn_up(std::slice::from_ref(&one), &[], t("12:00")).points,
        [
            point("10:00", [0, 0, 0, 0, 1]),
            point("12:00", [0, 0, 0, 0, 1])
        ]
    );
    // Seen at the moment it was filed: one point.
    assert_eq!(
        burn_up(&[one], &[], t("10:00")).points,
        [point("10:00", [0, 0, 0, 0, 1])]
    );
}

#[test]
fn the_last_point_is_the_progress_bar() {
    let mut done = task("done", TaskStatus::Completed);
    done.workers = vec![worker(
        WorkerStatus::Completed,
        Some("https://x/pull/1"),
        true,
    )];
    let mut waiting = task("waiting", TaskStatus::Completed);
    waiting.workers = vec![worker(
        WorkerStatus::Completed,
        Some("https://x/pull/2"),
        false,
    )];
    let mut running = task("running", TaskStatus::InProgress);
    running.workers = vec![worker(WorkerStatus::Running, None, false)];
    let failed = task("failed", TaskStatus::Failed);
    let cancelled = task("cancelled", TaskStatus::Cancelled);
    let pending = task("pending", TaskStatus::Pending);
    let mut retried = task("retried", TaskStatus::Failed);
    retried.created_at = Some(at("08:00"));
    let mut retry = task("retry", TaskStatus::Completed);
    retry.task_class = Some(TaskClass::Attempt);
    retry.parent_task_id = Some("retried".into());
    let mut planner = task("planner", TaskStatus::Completed);
    planner.task_class = Some(TaskClass::Bookkeeping);
    planner.mode = TaskMode::Planning;
    planner.workers = vec![worker(
        WorkerStatus::Completed,
        Some("https://x/pull/3"),
        false,
    )];
    let mut organizer = task("organizer", TaskStatus::Completed);
    organizer.task_class = Some(TaskClass::Bookkeeping);
    let mut orphan = task("orphan", TaskStatus::InProgress);
    orphan.task_class = Some(TaskClass::Attempt);
    orphan.parent_task_id = Some("elsewhere".into());
    let tasks = [
        done, waiting, running, failed, cancelled, pending, retried, retry, planner, organizer,
        orphan,
    ];
    let progress = compute_progress(&MissionStatus::Active, &tasks);
    let b = burn_up(&task_events(&tasks), &[], t("12:00"));
    let last = b.points.last().unwrap();
    assert_eq!(
        (
            last.total(),
            last.done,
            last.awaiting_merge,
            last.in_flight,
            last.failed
        ),
        (
            progress.total_tasks,
            progress.completed_tasks,
            progress.awaiting_merge,
            progress.in_flight,
            progress.failed
        )
    );
    assert_eq!((last.total(), last.done, last.not_started), (8, 2, 2));
}
