//! Active hours in a time zone: validation, the gate, and the next check-in that may run.

use super::{hour_in_window, ActiveHours};
use chrono::{DateTime, Duration, Timelike, Utc};
use chrono_tz::Tz;

/// Checks a mission's active-hours fields: all three set (hours 0–23 that differ, an IANA
/// time zone) or all three null. Each problem names its field.
pub fn validate_active_hours(
    start: Option<i64>,
    end: Option<i64>,
    timezone: Option<&str>,
) -> Result<Option<ActiveHours>, String> {
    let hour = |name: &str, v: i64| {
        if (0..=23).contains(&v) {
            Ok(v as u32)
        } else {
            Err(format!("{name} must be an integer from 0 to 23"))
        }
    };
    match (start, end, timezone) {
        (None, None, None) => Ok(None),
        (Some(s), Some(e), Some(tz)) => {
            let start = hour("activeHoursStart", s)?;
            let end = hour("activeHoursEnd", e)?;
            if start == end {
                return Err(
                    "activeHoursEnd must differ from activeHoursStart (the window would be empty)"
                        .into(),
                );
            }
            tz.parse::<Tz>().map_err(|_| {
                format!("activeHoursTimezone must be an IANA time zone such as Europe/Paris, not \"{tz}\"")
            })?;
            Ok(Some(ActiveHours {
                start,
                end,
                timezone: tz.to_string(),
            }))
        }
        (s, e, tz) => {
            let missing = [
                ("activeHoursStart", s.is_none()),
                ("activeHoursEnd", e.is_none()),
                ("activeHoursTimezone", tz.is_none()),
            ]
            .iter()
            .find(|(_, m)| *m)
            .map(|(n, _)| *n)
            .unwrap_or("activeHoursStart");
            Err(format!(
                "{missing} is required: set activeHoursStart, activeHoursEnd and activeHoursTimezone together, or all three to null"
            ))
        }
    }
}

/// Whether `at` falls within the active hours (in their time zone).
pub fn within_active_hours(hours: &ActiveHours, at: DateTime<Utc>) -> bool {
    let tz: Tz = hours.timezone.parse().unwrap_or(Tz::UTC);
    hour_in_window(hours.start, hours.end, at.with_timezone(&tz).hour())
}

/// The first check-in tick, from `next_tick` on every `interval`, that falls within the
/// active hours: when the mission's next check-in may actually run.
pub fn next_checkin(
    next_tick: DateTime<Utc>,
    interval: Duration,
    hours: Option<&ActiveHours>,
) -> DateTime<Utc> {
    let Some(hours) = hours else {
        return next_tick;
    };
    let step = interval.max(Duration::minutes(1));
    let mut t = next_tick;
    // Two weeks of ticks always reach a window of at least one hour.
    for _ in 0..(14 * 24 * 60 / step.num_minutes().max(1)).max(1) {
        if within_active_hours(hours, t) {
            return t;
        }
        t += step;
    }
    next_tick
}
