use super::*;
use crate::enums::WorkerStatus;
use crate::test_support::{task, worker};
use chrono::TimeZone;

fn at(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, h, m, 0).unwrap()
}

/// A mission that looks stuck: every condition for a run holds.
fn stuck() -> CheckinFacts {
    CheckinFacts {
        out_of_budget: None,
        dormant: false,
        manual: false,
        held: false,
        dependency_blocked: false,
        within_active_hours: true,
        open_tasks: 0,
        planning_in_flight: false,
        plan_in_review: false,
        last_organizer_run_at: Some(at(9, 0)),
        state_key: "c3o0f0x0p0m3".into(),
        last_state_key: Some("c2o1f0x0p0m2".into()),
    }
}

fn reason(d: CheckinDecision) -> &'static str {
    match d {
        CheckinDecision::Start => "start",
        CheckinDecision::Defer { reason, .. } => reason,
    }
}

const GRACE: i64 = 2;

#[test]
fn every_combination_of_the_three_conditions() {
    let now = at(12, 0);
    for open_work in [false, true] {
        for recent in [false, true] {
            for changed in [false, true] {
                let mut f = stuck();
                f.open_tasks = usize::from(open_work) * 2;
                f.last_organizer_run_at = Some(if recent { at(11, 0) } else { at(9, 0) });
                if !changed {
                    f.last_state_key = Some(f.state_key.clone());
                }
                let expected = if open_work {
                    "open_work"
                } else if recent {
                    "recent_organizer_run"
                } else if !changed {
                    "heartbeat_no_change"
                } else {
                    "start"
                };
                let got = reason(decide_checkin(&f, now, Duration::hours(GRACE)));
                assert_eq!(
                    got, expected,
                    "open {open_work} recent {recent} changed {changed}"
                );
            }
        }
    }
}

#[test]
fn the_reasons_read_as_sentences() {
    let now = at(12, 0);
    let mut f = stuck();
    f.open_tasks = 1;
    assert_eq!(
        decide_checkin(&f, now, Duration::hours(GRACE)),
        CheckinDecision::Defer {
            reason: "open_work",
            text: "deferred: open work (1 task)".into()
        }
    );
    let mut f = stuck();
    f.last_organizer_run_at = Some(at(11, 20));
    assert_eq!(
        decide_checkin(&f, now, Duration::hours(GRACE)),
        CheckinDecision::Defer {
            reason: "recent_organizer_run",
            text: "deferred: ran 40m ago".into()
        }
    );
}

#[test]
fn exactly_at_the_grace_boundary_is_still_recent_and_a_first_check_in_sees_change() {
    let mut f = stuck();
    f.last_organizer_run_at = Some(at(10, 0));
    assert_eq!(
        reason(decide_checkin(&f, at(12, 0), Duration::hours(GRACE))),
        "recent_organizer_run"
    );
    assert_eq!(
        reason(decide_checkin(&f, at(12, 1), Duration::hours(GRACE))),
        "start"
    );
    f.last_organizer_run_at = None;
    f.last_state_key = None;
    assert_eq!(
        reason(decide_checkin(&f, at(12, 0), Duration::hours(GRACE))),
        "start"
    );
}

#[test]
fn active_hours_manual_held_planning_and_review_defer_first() {
    type Case = (fn(&mut CheckinFacts), &'static str);
    let cases: [Case; 6] = [
        (|f| f.within_active_hours = false, "active_hours"),
        (|f| f.manual = true, "orchestration_manual"),
        (|f| f.held = true, "held"),
        (|f| f.dependency_blocked = true, "heartbeat_blocked"),
        (|f| f.planning_in_flight = true, "planning_active"),
        (|f| f.plan_in_review = true, "plan_in_review"),
    ];
    for (set, expected) in cases {
        let mut f = stuck();
        set(&mut f);
        assert_eq!(
            reason(decide_checkin(&f, at(12, 0), Duration::hours(GRACE))),
            expected
        );
    }
    // Outside active hours says so even when there is also open work.
    let mut f = stuck();
    f.within_active_hours = false;
    f.open_tasks = 3;
    assert_eq!(
        reason(decide_checkin(&f, at(12, 0), Duration::hours(GRACE))),
        "active_hours"
    );
}

#[test]
fn a_mission_out_of_budget_or_done_defers_before_anything_else() {
    let mut f = stuck();
    f.out_of_budget = Some((Usd::from_cents(140), Some(Usd::from_cents(100))));
    f.within_active_hours = false;
    f.dormant = true;
    assert_eq!(
        decide_checkin(&f, at(12, 0), Duration::hours(GRACE)),
        CheckinDecision::Defer {
            reason: "budget_exhausted",
            text: "deferred: its budget is spent ($1.40 of $1.00): raise costBudgetUsd to resume"
                .into()
        }
    );
    f.out_of_budget = None;
    assert_eq!(
        reason(decide_checkin(&f, at(12, 0), Duration::hours(GRACE))),
        "dormant"
    );
}

#[test]
fn windows_wrap_midnight() {
    assert!(hour_in_window(9, 18, 9));
    assert!(hour_in_window(9, 18, 17));
    assert!(!hour_in_window(9, 18, 18));
    assert!(!hour_in_window(9, 18, 3));
    assert!(hour_in_window(22, 6, 23));
    assert!(hour_in_window(22, 6, 0));
    assert!(hour_in_window(22, 6, 5));
    assert!(!hour_in_window(22, 6, 6));
    assert!(!hour_in_window(22, 6, 12));
}

#[test]
fn the_state_counts_deliverables_and_their_prs_only() {
    let mut merged = task("a", TaskStatus::Completed);
    merged.workers = vec![worker(
        WorkerStatus::Completed,
        Some("https://x/pull/1"),
        true,
    )];
    let mut open_pr = task("b", TaskStatus::Completed);
    open_pr.workers = vec![worker(
        WorkerStatus::Completed,
        Some("https://x/pull/2"),
        false,
    )];
    let running = task("c", TaskStatus::Assigned);
    let mut organizer = task("d", TaskStatus::Completed);
    organizer.mode = crate::enums::TaskMode::Planning;
    organizer.task_class = Some(crate::enums::TaskClass::Bookkeeping);
    let key = state_key(&[merged, open_pr, running.clone(), organizer.clone()]);
    assert_eq!(key, "c2o1f0x0p1m1");
    // A finished organizer run alone does not change the state.
    let without = state_key(&[running]);
    let with = state_key(&[task("c", TaskStatus::Assigned), organizer]);
    assert_eq!(without, with);
}

#[cfg(feature = "tz")]
mod zoned {
    use super::*;

    fn hours(start: u32, end: u32, tz: &str) -> ActiveHours {
        ActiveHours {
            start,
            end,
            timezone: tz.into(),
        }
    }

    #[test]
    fn validation_names_each_field() {
        assert_eq!(validate_active_hours(None, None, None), Ok(None));
        assert_eq!(
            validate_active_hours(Some(9), Some(18), Some("America/New_York")),
            Ok(Some(hours(9, 18, "America/New_York")))
        );
        let err = |s, e, tz| validate_active_hours(s, e, tz).unwrap_err();
        assert!(err(Some(24), Some(1), Some("UTC")).starts_with("activeHoursStart must be"));
        assert!(err(Some(1), Some(-1), Some("UTC")).starts_with("activeHoursEnd must be"));
        assert!(err(Some(9), Some(9), Some("UTC")).starts_with("activeHoursEnd must differ"));
        assert!(
            err(Some(9), Some(18), Some("Mars/Olympus")).starts_with("activeHoursTimezone must be")
        );
        assert!(err(Some(9), None, None).starts_with("activeHoursEnd is required"));
        assert!(err(None, None, Some("UTC")).starts_with("activeHoursStart is required"));
    }

    #[test]
    fn the_gate_reads_the_local_hour() {
        let ny = hours(9, 18, "America/New_York");
        // 13:30 UTC on 29 Nov is 08:30 in New York (EST, UTC−5): before the window.
        assert!(!within_active_hours(&ny, at(13, 30)));
        assert!(within_active_hours(&ny, at(14, 0)));
        assert!(!within_active_hours(&ny, at(23, 0)));
        let overnight = hours(22, 6, "Europe/Paris");
        // 21:30 UTC is 22:30 in Paris (CET, UTC+1).
        assert!(within_active_hours(&overnight, at(21, 30)));
        assert!(!within_active_hours(&overnight, at(12, 0)));
    }

    #[test]
    fn a_daylight_saving_change_moves_the_window_in_utc() {
        let ny = hours(9, 10, "America/New_York");
        // Before the March change New York is UTC−5; after it, UTC−4.
        let before = Utc.with_ymd_and_hms(2026, 3, 7, 14, 30, 0).unwrap();
        let after = Utc.with_ymd_and_hms(2026, 3, 9, 13, 30, 0).unwrap();
        assert!(within_active_hours(&ny, before));
        assert!(within_active_hours(&ny, after));
        assert!(!within_active_hours(
            &ny,
            Utc.with_ymd_and_hms(2026, 3, 9, 14, 30, 0).unwrap()
        ));
    }

    #[test]
    fn the_next_check_in_waits_for_the_window() {
        let ny = hours(9, 18, "America/New_York");
        // Ticks every hour from 01:00 UTC (20:00 in New York): the first inside is 14:00 UTC.
        let next = next_checkin(at(1, 0), Duration::hours(1), Some(&ny));
        assert_eq!(next, at(14, 0));
        assert_eq!(
            next_checkin(at(15, 0), Duration::hours(1), Some(&ny)),
            at(15, 0)
        );
        assert_eq!(next_checkin(at(1, 0), Duration::hours(1), None), at(1, 0));
    }
}

#[test]
fn a_check_in_remembers_the_state_only_when_it_started_the_organizer_or_found_no_change() {
    let now = at(12, 0);
    let grace = Duration::hours(GRACE);
    assert!(decide_checkin(&stuck(), now, grace).remembers_state());
    let mut unchanged = stuck();
    unchanged.last_state_key = Some(unchanged.state_key.clone());
    assert!(decide_checkin(&unchanged, now, grace).remembers_state());
    // Deferred for another reason: the last state stays, so a change is still seen later.
    let mut outside = stuck();
    outside.within_active_hours = false;
    assert!(!decide_checkin(&outside, now, grace).remembers_state());
    let mut open = stuck();
    open.open_tasks = 1;
    assert!(!decide_checkin(&open, now, grace).remembers_state());
}
