//! The busiest hours: agent-hours worked in each hour of the day, and which of those hours
//! are a mission's active hours (check-ins' own window rule, `checkin::hour_in_window`).
//! Hours are local to a zone given as its UTC offset at each instant, so the browser, which
//! carries no zone tables, can pass its own clock's; the server passes the mission's zone.

use crate::checkin::hour_in_window;
use crate::task::TaskWorker;
use crate::worker::Worker;
use serde::{Deserialize, Serialize};

const HOUR_MS: i64 = 3_600_000;

/// A span one agent worked: a worker from its start to its end (or now, while it runs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BusyInterval {
    pub started_at: String,
    /// `None` while it runs.
    #[serde(default)]
    pub ended_at: Option<String>,
    #[serde(default)]
    pub workspace_id: Option<String>,
}

impl BusyInterval {
    /// A worker row's span; a worker that stopped without completing ended at its last update.
    pub fn of_worker(worker: &Worker) -> Option<BusyInterval> {
        BusyInterval::of_times(
            worker.started_at.clone(),
            worker.completed_at.clone(),
            worker.updated_at.clone(),
            worker.status.is_live(),
            Some(worker.workspace_id.clone()),
        )
    }

    /// A worker's span from its times: to its completion, else on while it is live, else
    /// to its last update; `None` when it never started.
    pub fn of_times(
        started_at: Option<String>,
        completed_at: Option<String>,
        updated_at: String,
        live: bool,
        workspace_id: Option<String>,
    ) -> Option<BusyInterval> {
        let ended_at = match (completed_at, live) {
            (Some(done), _) => Some(done),
            (None, true) => None,
            (None, false) => Some(updated_at),
        };
        Some(BusyInterval {
            started_at: started_at?,
            ended_at,
            workspace_id,
        })
    }

    /// A run of a task's page (`?include=workers`).
    pub fn of_run(run: &TaskWorker) -> Option<BusyInterval> {
        let ended_at = match (&run.completed_at, run.status.is_live()) {
            (Some(done), _) => Some(done.clone()),
            (None, true) => None,
            (None, false) => Some(run.updated_at.clone()?),
        };
        Some(BusyInterval {
            started_at: run.started_at.clone()?,
            ended_at,
            workspace_id: None,
        })
    }
}

/// One hour of the day.
#[derive(Clone, Debug, PartialEq)]
pub struct HourLoad {
    /// 0 for 00:00–01:00 local.
    pub hour: u32,
    /// Agent-seconds worked in it, all days together.
    pub agent_seconds: i64,
    pub agent_hours: f64,
    /// It lies in the active hours.
    pub active: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BusyHours {
    /// All 24, from 0.
    pub hours: Vec<HourLoad>,
    pub agent_seconds: i64,
    /// Of them, worked within the active hours (all of them without a window).
    pub active_seconds: i64,
    /// The hour with the most work (the earliest of equals); `None` when none was done.
    pub busiest: Option<u32>,
    /// The active hours `[start, end)`, when there are some.
    pub window: Option<(u32, u32)>,
}

impl BusyHours {
    /// The picture's text alternative.
    pub fn describe(&self) -> String {
        let Some(busiest) = self.busiest else {
            return "No agent work in this period.".into();
        };
        let span = crate::duration::span;
        let mut text = format!(
            "Agents worked {}; busiest {busiest:02}:00–{:02}:00 ({})",
            span(self.agent_seconds),
            (busiest + 1) % 24,
            span(self.hours[busiest as usize].agent_seconds)
        );
        if let Some((start, end)) = self.window {
            let share = self.active_seconds * 100 / self.agent_seconds.max(1);
            text.push_str(&format!(
                "; {share}% within active hours {start:02}:00–{end:02}:00"
            ));
        }
        text.push('.');
        text
    }
}

/// Agent-hours per local hour of the day over `intervals`, those still running counted to
/// `now_ms`. `offset` gives the zone's offset east of UTC, in seconds, at an instant (epoch
/// ms); `window` the active hours `[start, end)`, wrapping midnight when start > end.
pub fn busy_hours(
    intervals: &[BusyInterval],
    now_ms: i64,
    offset: impl Fn(i64) -> i32,
    window: Option<(u32, u32)>,
) -> BusyHours {
    let mut ms = [0i64; 24];
    for interval in intervals {
        let Some(start) = super::ms_of(&interval.started_at) else {
            continue;
        };
        let end = match &interval.ended_at {
            Some(end) => match super::ms_of(end) {
                Some(end) => end.min(now_ms),
                None => continue,
            },
            None => now_ms,
        };
        // Cut at each local hour's end (a zone off the hour, such as +05:30, included).
        let mut t = start;
        while t < end {
            let local = t + i64::from(offset(t)) * 1000;
            let hour = local.div_euclid(HOUR_MS).rem_euclid(24) as usize;
            let next = (t + HOUR_MS - local.rem_euclid(HOUR_MS)).min(end);
            ms[hour] += next - t;
            t = next;
        }
    }
    let active = |hour: u32| window.is_none_or(|(start, end)| hour_in_window(start, end, hour));
    let hours: Vec<HourLoad> = (0..24u32)
        .map(|hour| HourLoad {
            hour,
            agent_seconds: ms[hour as usize] / 1000,
            agent_hours: ms[hour as usize] as f64 / HOUR_MS as f64,
            active: active(hour),
        })
        .collect();
    let total: i64 = ms.iter().sum();
    let busiest = (total > 0).then(|| {
        // `max_by_key` keeps the last of equals; the earliest reads better.
        (0..24u32)
            .rev()
            .max_by_key(|&h| ms[h as usize])
            .unwrap_or(0)
    });
    BusyHours {
        agent_seconds: total / 1000,
        active_seconds: hours
            .iter()
            .filter(|h| h.active)
            .map(|h| ms[h.hour as usize])
            .sum::<i64>()
            / 1000,
        hours,
        busiest,
        window,
    }
}

/// [`busy_hours`] in a mission's active-hours zone, with its window.
#[cfg(feature = "tz")]
pub fn busy_hours_in(
    intervals: &[BusyInterval],
    now_ms: i64,
    hours: &crate::checkin::ActiveHours,
) -> BusyHours {
    use chrono::Offset;
    let tz: chrono_tz::Tz = hours.timezone.parse().unwrap_or(chrono_tz::Tz::UTC);
    busy_hours(
        intervals,
        now_ms,
        |ms| {
            super::utc(ms)
                .with_timezone(&tz)
                .offset()
                .fix()
                .local_minus_utc()
        },
        Some((hours.start, hours.end)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: &str, end: Option<&str>) -> BusyInterval {
        BusyInterval {
            started_at: format!("2026-11-29T{start}:00Z"),
            ended_at: end.map(|e| format!("2026-11-29T{e}:00Z")),
            workspace_id: None,
        }
    }

    fn now(hm: &str) -> i64 {
        super::super::ms_of(&format!("2026-11-29T{hm}:00Z")).unwrap()
    }

    fn loads(b: &BusyHours) -> Vec<(u32, i64)> {
        b.hours
            .iter()
            .filter(|h| h.agent_seconds > 0)
            .map(|h| (h.hour, h.agent_seconds / 60))
            .collect()
    }

    #[test]
    fn work_is_cut_at_each_hour_and_summed_over_agents() {
        let spans = [
            span("09:30", Some("11:15")),
            span("10:00", Some("10:30")),
            // Still running: counted to now.
            span("16:45", None),
        ];
        let b = busy_hours(&spans, now("17:30"), |_| 0, Some((9, 17)));
        // Minutes per hour.
        assert_eq!(loads(&b), [(9, 30), (10, 90), (11, 15), (16, 15), (17, 30)]);
        assert_eq!(b.busiest, Some(10));
        assert_eq!((b.agent_seconds, b.active_seconds), (180 * 60, 150 * 60));
        assert!(b.hours[16].active && !b.hours[17].active);
        assert_eq!(b.hours[10].agent_hours, 1.5);
        assert_eq!(
            b.describe(),
            "Agents worked 3h; busiest 10:00–11:00 (1h 30m); 83% within active hours \
             09:00–17:00."
        );
    }

    #[test]
    fn hours_are_local_to_the_zone_even_off_the_hour() {
        // +05:30: 09:30Z–10:30Z is 15:00–16:00 local.
        let b = busy_hours(
            &[span("09:30", Some("10:30"))],
            now("12:00"),
            |_| 5 * 3600 + 1800,
            Some((22, 6)),
        );
        assert_eq!(loads(&b), [(15, 60)]);
        // An overnight window wraps midnight.
        assert!(b.hours[23].active && b.hours[0].active && !b.hours[15].active);
        assert_eq!(b.active_seconds, 0);
    }

    #[test]
    fn nothing_and_one_moment() {
        let none = busy_hours(&[], now("12:00"), |_| 0, None);
        assert_eq!((none.busiest, none.agent_seconds), (None, 0));
        assert_eq!(none.hours.len(), 24);
        assert_eq!(none.describe(), "No agent work in this period.");
        // A span of no length, or one ending before it starts, adds nothing.
        let empty = busy_hours(
            &[span("10:00", Some("10:00")), span("11:00", Some("10:00"))],
            now("12:00"),
            |_| 0,
            None,
        );
        assert_eq!(empty.agent_seconds, 0);
        // Without a window every hour counts as active.
        let one = busy_hours(&[span("10:00", Some("10:01"))], now("12:00"), |_| 0, None);
        assert_eq!((one.busiest, one.active_seconds), (Some(10), 60));
    }

    #[cfg(feature = "tz")]
    #[test]
    fn a_mission_zone_gives_its_hours() {
        let paris = crate::checkin::ActiveHours {
            start: 9,
            end: 17,
            timezone: "Europe/Paris".into(),
        };
        // 29 November: Paris is UTC+1.
        let b = busy_hours_in(&[span("08:00", Some("09:00"))], now("12:00"), &paris);
        assert_eq!(loads(&b), [(9, 60)]);
        assert_eq!(b.active_seconds, 3600);
    }
}
