use super::*;
use crate::enums::WorkerStatus;
use crate::test_support::{task, worker};

fn with_class(mut t: MissionTask, class: Option<TaskClass>) -> MissionTask {
    t.task_class = class;
    t
}

fn with_worker(mut t: MissionTask, w: WorkerSummary) -> MissionTask {
    t.workers.push(w);
    t
}

fn active(tasks: &[MissionTask]) -> MissionProgress {
    compute_progress(&MissionStatus::Active, tasks)
}

#[test]
fn no_tasks_is_zero_percent() {
    let p = active(&[]);
    assert_eq!((p.total_tasks, p.completed_tasks, p.progress), (0, 0, 0));
    assert!(p.segments.is_empty());
}

#[test]
fn only_work_counts_not_bookkeeping() {
    let tasks = [
        task("a", TaskStatus::Completed),
        with_class(
            task("org", TaskStatus::Failed),
            Some(TaskClass::Bookkeeping),
        ),
        with_class(
            task("agg", TaskStatus::Pending),
            Some(TaskClass::Bookkeeping),
        ),
    ];
    let p = active(&tasks);
    assert_eq!((p.total_tasks, p.completed_tasks, p.progress), (1, 1, 100));
}

#[test]
fn a_failed_organizer_run_does_not_drag_a_finished_mission_below_100() {
    let mut organizer = task("org", TaskStatus::Failed);
    organizer.mode = TaskMode::Planning;
    organizer.task_class = None;
    organizer.title = "Mission: Ship it".into();
    let p = active(&[task("a", TaskStatus::Completed), organizer]);
    assert_eq!(p.progress, 100);
}

#[test]
fn legacy_rows_without_class_use_the_heuristic() {
    let mut review = with_class(task("r", TaskStatus::Pending), None);
    review.category = Some("review".into());
    let mut coordination = with_class(task("c", TaskStatus::Pending), None);
    coordination.kind = Some("coordination".into());
    let mut planning = with_class(task("p", TaskStatus::Pending), None);
    planning.mode = TaskMode::Planning;
    let mut aggregate = with_class(task("g", TaskStatus::Pending), None);
    aggregate.title = "Aggregate results: plan".into();
    let mut evaluate = with_class(task("e", TaskStatus::Pending), None);
    evaluate.title = "Evaluate mission completion: m".into();
    let mut close = with_class(task("x", TaskStatus::Pending), None);
    close.title = "Close mission m".into();
    let work = with_class(task("w", TaskStatus::Completed), None);
    let p = active(&[
        review,
        coordination,
        planning,
        aggregate,
        evaluate,
        close,
        work,
    ]);
    assert_eq!((p.total_tasks, p.completed_tasks), (1, 1));
}

#[test]
fn class_wins_over_title_heuristic() {
    // A `[friction]` task is bookkeeping by class even though its title looks like work.
    let mut friction = with_class(task("f", TaskStatus::Pending), Some(TaskClass::Bookkeeping));
    friction.title = "[friction] flaky test".into();
    // A deliverable whose title starts like housekeeping still counts when classed work.
    let mut work = task("w", TaskStatus::Pending);
    work.title = "Mission: a literal title".into();
    let p = active(&[friction, work]);
    assert_eq!(p.total_tasks, 1);
    assert_eq!(p.segments[0].task_id, "w");
}

#[test]
fn cancelled_tasks_leave_numerator_and_denominator() {
    let tasks = [
        task("a", TaskStatus::Completed),
        task("b", TaskStatus::Cancelled),
        task("c", TaskStatus::Cancelled),
    ];
    let p = active(&tasks);
    assert_eq!((p.total_tasks, p.completed_tasks, p.progress), (1, 1, 100));
}

#[test]
fn failed_tasks_count_against_progress() {
    let tasks = [
        task("a", TaskStatus::Completed),
        task("b", TaskStatus::Failed),
    ];
    let p = active(&tasks);
    assert_eq!(
        (p.total_tasks, p.completed_tasks, p.failed, p.progress),
        (2, 1, 1, 50)
    );
}

#[test]
fn attempts_fold_into_their_parent_with_the_best_outcome() {
    let parent = task("p", TaskStatus::Failed);
    let mut retry = with_class(task("r", TaskStatus::Completed), Some(TaskClass::Attempt));
    retry.parent_task_id = Some("p".into());
    let p = active(&[parent, retry]);
    assert_eq!((p.total_tasks, p.completed_tasks, p.progress), (1, 1, 100));
    assert_eq!(
        p.segments,
        vec![Segment {
            task_id: "p".into(),
            state: SegmentState::Solid
        }]
    );
}

#[test]
fn attempts_of_attempts_fold_into_the_root() {
    let parent = task("p", TaskStatus::Failed);
    let mut first = with_class(task("r1", TaskStatus::Failed), Some(TaskClass::Attempt));
    first.parent_task_id = Some("p".into());
    let mut second = with_class(task("r2", TaskStatus::Pending), Some(TaskClass::Attempt));
    second.parent_task_id = Some("r1".into());
    let p = active(&[parent, first, second]);
    assert_eq!(p.total_tasks, 1);
    assert_eq!(p.segments[0].state, SegmentState::Empty);
}

#[test]
fn legacy_attempts_are_recognised_by_title_or_mode() {
    let parent = task("p", TaskStatus::Failed);
    let mut ci = with_class(task("ci", TaskStatus::Completed), None);
    ci.title = "[CI Retry] fix lint".into();
    ci.parent_task_id = Some("p".into());
    let p = active(&[parent.clone(), ci]);
    assert_eq!((p.total_tasks, p.completed_tasks), (1, 1));

    // A plan child (execution, with a parent, no prefix) is its own deliverable.
    let mut child = with_class(task("child", TaskStatus::Pending), None);
    child.parent_task_id = Some("p".into());
    let p = active(&[parent, child]);
    assert_eq!(p.total_tasks, 2);
}

#[test]
fn short_or_non_ascii_titles_are_not_attempts() {
    let parent = task("p", TaskStatus::Pending);
    for title in [
        "[re",
        "[retr\u{e9}y] again",
        "\u{e9}[retry] x",
        "[REVIEWER] look",
    ] {
        let mut child = with_class(task("c", TaskStatus::Pending), None);
        child.title = title.into();
        child.parent_task_id = Some("p".into());
        let attempt = title == "[REVIEWER] look";
        assert_eq!(is_attempt(&child), attempt, "{title}");
    }
    assert!(!is_attempt(&parent));
}

#[test]
fn an_in_progress_parent_with_a_cancelled_attempt_still_counts() {
    // Buildd ranks in_progress below cancelled, so this parent vanished from the count.
    let parent = with_worker(
        task("p", TaskStatus::InProgress),
        worker(WorkerStatus::Running, None, false),
    );
    let mut attempt = with_class(task("a", TaskStatus::Cancelled), Some(TaskClass::Attempt));
    attempt.parent_task_id = Some("p".into());
    let p = active(&[parent, attempt]);
    assert_eq!(p.total_tasks, 1);
    assert_eq!(p.segments[0].state, SegmentState::Ghost);
}

#[test]
fn attempt_workers_join_the_parent() {
    let parent = task("p", TaskStatus::Failed);
    let mut retry = with_class(task("r", TaskStatus::Pending), Some(TaskClass::Attempt));
    retry.parent_task_id = Some("p".into());
    let retry = with_worker(retry, worker(WorkerStatus::Running, None, false));
    let p = active(&[parent, retry]);
    assert_eq!(p.segments[0].state, SegmentState::Ghost);
}

#[test]
fn orphan_attempts_count_on_their_own() {
    let mut retry = with_class(task("r", TaskStatus::Completed), Some(TaskClass::Attempt));
    retry.parent_task_id = Some("gone".into());
    let p = active(&[retry]);
    assert_eq!((p.total_tasks, p.completed_tasks), (1, 1));
}

#[test]
fn segment_states() {
    let tasks = [
        task("empty", TaskStatus::Pending),
        with_worker(
            task("ghost", TaskStatus::Assigned),
            worker(WorkerStatus::Idle, None, false),
        ),
        task("notch", TaskStatus::Failed),
        with_worker(
            task("half", TaskStatus::Completed),
            worker(WorkerStatus::Completed, Some("https://x/pr/1"), false),
        ),
        with_worker(
            task("merged", TaskStatus::Completed),
            worker(WorkerStatus::Completed, Some("https://x/pr/2"), true),
        ),
        with_worker(
            task("nopr", TaskStatus::Completed),
            worker(WorkerStatus::Completed, None, false),
        ),
    ];
    let p = active(&tasks);
    let states: Vec<(&str, SegmentState)> = p
        .segments
        .iter()
        .map(|s| (s.task_id.as_str(), s.state))
        .collect();
    // Sorted solid, half, ghost, notch, empty; stable within a state.
    assert_eq!(
        states,
        vec![
            ("merged", SegmentState::Solid),
            ("nopr", SegmentState::Solid),
            ("half", SegmentState::Half),
            ("ghost", SegmentState::Ghost),
            ("notch", SegmentState::Notch),
            ("empty", SegmentState::Empty),
        ]
    );
    assert_eq!(
        (
            p.total_tasks,
            p.completed_tasks,
            p.awaiting_merge,
            p.in_flight
        ),
        (6, 2, 1, 1)
    );
    assert_eq!(p.progress, 33);
}

#[test]
fn a_live_worker_wins_over_a_finished_status() {
    let t = with_worker(
        task("t", TaskStatus::Completed),
        worker(WorkerStatus::Running, None, false),
    );
    assert_eq!(active(&[t]).segments[0].state, SegmentState::Ghost);
}

#[test]
fn an_open_pr_is_not_done_until_merged() {
    let open = with_worker(
        task("t", TaskStatus::Completed),
        worker(WorkerStatus::Completed, Some("https://x/pr/1"), false),
    );
    let p = active(&[open]);
    assert_eq!((p.completed_tasks, p.awaiting_merge, p.progress), (0, 1, 0));
}

#[test]
fn planning_tasks_count_when_they_opened_a_pr() {
    let mut plan = with_class(
        task("p", TaskStatus::Completed),
        Some(TaskClass::Bookkeeping),
    );
    plan.mode = TaskMode::Planning;
    let without = active(&[plan.clone()]);
    assert_eq!(without.total_tasks, 0);
    let plan = with_worker(
        plan,
        worker(WorkerStatus::Completed, Some("https://x/pr/9"), true),
    );
    let with = active(&[plan]);
    assert_eq!((with.total_tasks, with.completed_tasks), (1, 1));
}

#[test]
fn percent_rounds_half_up() {
    assert_eq!(percent(1, 8), 13); // 12.5
    assert_eq!(percent(1, 3), 33); // 33.3
    assert_eq!(percent(2, 3), 67); // 66.7
    assert_eq!(percent(5, 200), 3); // 2.5
    assert_eq!(percent(0, 5), 0);
    assert_eq!(percent(5, 5), 100);
    assert_eq!(percent(3, 0), 0);
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            task(
                &format!("t{i}"),
                if i == 0 {
                    TaskStatus::Completed
                } else {
                    TaskStatus::Pending
                },
            )
        })
        .collect();
    assert_eq!(active(&tasks).progress, 13);
}

#[test]
fn a_completed_mission_shows_100_but_keeps_raw_counts() {
    let tasks = [
        task("a", TaskStatus::Completed),
        task("b", TaskStatus::Failed),
    ];
    let p = compute_progress(&MissionStatus::Completed, &tasks);
    assert_eq!((p.total_tasks, p.completed_tasks, p.progress), (2, 1, 100));
    let empty = compute_progress(&MissionStatus::Completed, &[]);
    assert_eq!(empty.progress, 100);
    // Archived is not completed: the raw percentage stands.
    assert_eq!(
        compute_progress(&MissionStatus::Archived, &tasks).progress,
        50
    );
}

#[test]
fn segments_serialize_as_buildd_does() {
    let s = Segment {
        task_id: "t".into(),
        state: SegmentState::Half,
    };
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        r#"{"taskId":"t","state":"half"}"#
    );
}
