//! A task's runs as a person reads them: which attempt this is, how long it took or has
//! taken, and whether a live run's runner has gone quiet.

pub mod milestones;

use crate::task::TaskWorker;
use chrono::{DateTime, Duration, Utc};

/// A live run whose runner has not reported for this long is called quiet. Runners report
/// every few minutes; the claim itself lapses only after an hour.
pub const QUIET_AFTER: Duration = Duration::minutes(15);

/// Whole seconds from one ISO time to another; `None` when either does not read or the
/// second comes first.
pub fn seconds_between_times(from: &str, to: &str) -> Option<i64> {
    let (from, to) = (at(Some(from))?, at(Some(to))?);
    (to >= from).then(|| (to - from).num_seconds())
}

fn at(iso: Option<&str>) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(iso?)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

fn from_ms(now_ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(now_ms).unwrap_or_default()
}

/// How long the run took, or has taken by `now_ms` (epoch milliseconds) while live.
pub fn run_duration(run: &TaskWorker, now_ms: i64) -> Option<Duration> {
    let now = from_ms(now_ms);
    let start = at(run.started_at.as_deref()).or(at(run.created_at.as_deref()))?;
    let end = at(run.completed_at.as_deref()).unwrap_or(now);
    (end >= start).then(|| end - start)
}

/// How long a live run's runner has been silent at `now_ms`, when past [`QUIET_AFTER`].
pub fn quiet_for(run: &TaskWorker, now_ms: i64) -> Option<Duration> {
    let now = from_ms(now_ms);
    if !run.status.is_live() {
        return None;
    }
    let last = at(run.updated_at.as_deref())
        .or(at(run.started_at.as_deref()))
        .or(at(run.created_at.as_deref()))?;
    let silent = now - last;
    (silent > QUIET_AFTER).then_some(silent)
}

/// "45s", "12m", "3h 5m", "2d 4h": [`crate::duration::span`] of a chrono duration.
pub fn span(d: Duration) -> String {
    crate::duration::span(d.num_seconds())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::WorkerStatus;

    fn run(
        status: WorkerStatus,
        started: &str,
        updated: &str,
        completed: Option<&str>,
    ) -> TaskWorker {
        TaskWorker {
            id: "w".into(),
            status,
            branch: None,
            pr_url: None,
            pr_number: None,
            merged_at: None,
            error: None,
            current_action: None,
            started_at: Some(started.into()),
            completed_at: completed.map(str::to_string),
            created_at: Some(started.into()),
            last_commit_sha: None,
            updated_at: Some(updated.into()),
            cost_usd: None,
            input_tokens: None,
            output_tokens: None,
            turns: None,
            commit_count: None,
            files_changed: None,
            lines_added: None,
            lines_removed: None,
            milestones: vec![],
            milestones_reported: None,
            waiting_for: None,
            terminal_reason: None,
        }
    }

    fn t(iso: &str) -> i64 {
        at(Some(iso)).unwrap().timestamp_millis()
    }

    #[test]
    fn a_live_run_goes_quiet_after_a_quarter_hour_without_a_report() {
        let now = t("2026-12-01T12:00:00Z");
        let talking = run(
            WorkerStatus::Running,
            "2026-12-01T11:00:00Z",
            "2026-12-01T11:50:00Z",
            None,
        );
        assert_eq!(quiet_for(&talking, now), None);
        let quiet = run(
            WorkerStatus::Running,
            "2026-12-01T11:00:00Z",
            "2026-12-01T11:22:00Z",
            None,
        );
        assert_eq!(quiet_for(&quiet, now), Some(Duration::minutes(38)));
        let finished = run(
            WorkerStatus::Completed,
            "2026-12-01T09:00:00Z",
            "2026-12-01T09:30:00Z",
            Some("2026-12-01T09:30:00Z"),
        );
        assert_eq!(
            quiet_for(&finished, now),
            None,
            "a finished run is not quiet"
        );
    }

    #[test]
    fn a_runs_duration_ends_when_it_did_or_now() {
        let now = t("2026-12-01T12:00:00Z");
        let live = run(
            WorkerStatus::Running,
            "2026-12-01T11:03:00Z",
            "2026-12-01T11:50:00Z",
            None,
        );
        assert_eq!(run_duration(&live, now).map(span).as_deref(), Some("57m"));
        let done = run(
            WorkerStatus::Completed,
            "2026-12-01T08:00:00Z",
            "x",
            Some("2026-12-01T10:05:00Z"),
        );
        assert_eq!(run_duration(&done, now).map(span).as_deref(), Some("2h 5m"));
        assert_eq!(span(Duration::seconds(45)), "45s");
        assert_eq!(span(Duration::hours(52)), "2d 4h");
    }
}
