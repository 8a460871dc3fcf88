use super::*;
use crate::insights::events::PrEvents;
use crate::insights::ms_of;

fn at(hm: &str) -> String {
    format!("2026-11-29T{hm}:00Z")
}

fn t(hm: &str) -> i64 {
    ms_of(&at(hm)).unwrap()
}

fn task(id: &str, class: TaskClass, status: TaskStatus, parent: Option<&str>) -> TaskEvents {
    TaskEvents {
        id: id.into(),
        title: format!("Task {id}"),
        class,
        mode: TaskMode::Execution,
        status,
        parent_task_id: parent.map(Into::into),
        depends_on: vec![],
        created_at: None,
        claimed_at: None,
        finished_at: None,
        live: false,
        pr: None,
        cost_usd: None,
    }
}

fn timed(mut r: TaskEvents, times: [Option<&str>; 3]) -> TaskEvents {
    [r.created_at, r.claimed_at, r.finished_at] = times.map(|t| t.map(at));
    r
}

fn mission() -> Vec<TaskEvents> {
    let mut plan = timed(
        task("plan", TaskClass::Bookkeeping, TaskStatus::Completed, None),
        [Some("09:00"), Some("09:01"), Some("09:10")],
    );
    plan.mode = TaskMode::Planning;
    let mut a = timed(
        task("a", TaskClass::Work, TaskStatus::Completed, Some("plan")),
        [Some("10:00"), Some("10:05"), Some("10:30")],
    );
    a.pr = Some(PrEvents {
        number: Some(7),
        opened_at: Some(at("10:30")),
        merged_at: Some(at("11:00")),
    });
    let mut b = timed(
        task("b", TaskClass::Work, TaskStatus::Failed, Some("plan")),
        [Some("10:00"), Some("10:35"), Some("10:50")],
    );
    b.depends_on = vec!["a".into()];
    let mut retry = timed(
        task(
            "b-retry",
            TaskClass::Attempt,
            TaskStatus::InProgress,
            Some("b"),
        ),
        [Some("10:55"), Some("11:00"), None],
    );
    retry.live = true;
    let x = timed(
        task("x", TaskClass::Work, TaskStatus::Pending, None),
        [Some("08:00"), None, None],
    );
    let mut idle = timed(
        task("idle", TaskClass::Bookkeeping, TaskStatus::Completed, None),
        [Some("11:00"), Some("11:01"), Some("11:05")],
    );
    idle.mode = TaskMode::Planning;
    vec![retry, b, a, plan, x, idle]
}

#[test]
fn bars_group_by_plan_then_wave_with_retries_under_their_task() {
    let tl = timeline(&mission(), t("12:00"));
    let lanes: Vec<(&str, usize, u32, Option<&str>, Outcome)> = tl
        .bars
        .iter()
        .map(|b| {
            (
                b.task_id.as_str(),
                b.group,
                b.wave,
                b.attempt_of.as_deref(),
                b.outcome,
            )
        })
        .collect();
    assert_eq!(
        lanes,
        [
            ("idle", 0, 0, None, Outcome::Done),
            ("x", 0, 1, None, Outcome::Waiting),
            ("plan", 1, 0, None, Outcome::Done),
            ("a", 1, 1, None, Outcome::Done),
            ("b", 1, 2, None, Outcome::Failed),
            ("b-retry", 1, 2, Some("b"), Outcome::Running),
        ]
    );
    assert!(tl.bars.iter().enumerate().all(|(i, b)| b.lane == i as u32));
    assert_eq!(
        tl.groups,
        [
            Group {
                plan_id: None,
                title: "Filed directly".into(),
                approved_ms: None,
                first_lane: 0,
                lanes: 2,
                waves: 1,
            },
            Group {
                plan_id: Some("plan".into()),
                title: "Task plan".into(),
                approved_ms: Some(t("10:00")),
                first_lane: 2,
                lanes: 4,
                waves: 2,
            },
        ]
    );
    let a = &tl.bars[3];
    assert_eq!(
        (a.queued_ms, a.claimed_ms, a.finished_ms, a.merged_ms),
        (
            t("10:00"),
            Some(t("10:05")),
            Some(t("10:30")),
            Some(t("11:00"))
        )
    );
    assert_eq!(
        a.figures(),
        "Task a: done, queued 5m, ran 25m, PR #7 merged 30m after it finished"
    );
    assert_eq!(tl.bars[5].finished_ms, None);
    assert_eq!(tl.bars[5].figures(), "Task b-retry: running, queued 5m");
    // A task still running draws the picture to now.
    assert_eq!((tl.start_ms, tl.end_ms), (t("08:00"), t("12:00")));
    assert_eq!(
        tl.describe(),
        "6 tasks in 2 groups over 4h: 3 done, 1 running, 1 waiting, 1 failed, 0 cancelled; 1 \
         PR merged."
    );
}

#[test]
fn the_order_does_not_depend_on_the_order_given() {
    let mut reversed = mission();
    reversed.reverse();
    assert_eq!(
        timeline(&mission(), t("12:00")),
        timeline(&reversed, t("12:00"))
    );
}

#[test]
fn a_dependency_cycle_still_draws() {
    let mut a = task("a", TaskClass::Work, TaskStatus::Pending, None);
    let mut b = task("b", TaskClass::Work, TaskStatus::Pending, None);
    a.depends_on = vec!["b".into()];
    b.depends_on = vec!["a".into()];
    let tl = timeline(&[a, b], t("12:00"));
    assert_eq!(tl.bars.len(), 2);
}

#[test]
fn nothing_and_one_task() {
    let empty = timeline(&[], t("12:00"));
    assert!(empty.bars.is_empty() && empty.groups.is_empty());
    assert_eq!((empty.start_ms, empty.end_ms), (t("12:00"), t("12:00")));
    assert_eq!(empty.describe(), "No tasks yet.");
    let one = timed(
        task("a", TaskClass::Work, TaskStatus::Completed, None),
        [Some("10:00"), Some("10:10"), Some("10:40")],
    );
    let tl = timeline(&[one], t("12:00"));
    assert_eq!(tl.bars.len(), 1);
    assert_eq!((tl.start_ms, tl.end_ms), (t("10:00"), t("10:40")));
    assert_eq!(tl.bars[0].figures(), "Task a: done, queued 10m, ran 30m");
}
