//! Pictures where a lead would rather look than read: each series a mission or the team is
//! drawn from, computed once here so the server's query, a hosted Buildd's answers and the
//! dashboard's what-if all give the same figures; and the drawing's shared arithmetic
//! (scales, ticks, downsampling, SVG paths).
//!
//! The rows travel (camelCase JSON: the server's one query per picture, or a hosted Buildd's
//! answers turned into them); the figures are computed where they are drawn. Times arrive as
//! RFC 3339 strings, as on the rest of the wire, and leave as epoch milliseconds, what a
//! scale maps. A time that does not read is left out, never guessed.

pub mod burn_up;
pub mod busy_hours;
pub mod downsample;
pub mod events;
pub mod path;
pub mod scale;
pub mod spend_series;
pub mod team;
pub mod timeline;
pub mod weekly;
pub mod what_if;
mod wire_time;

use chrono::{DateTime, Utc};

/// Epoch milliseconds of an RFC 3339 time: the wire's own shape read directly, any other
/// by chrono.
pub fn ms_of(iso: &str) -> Option<i64> {
    wire_time::utc_millis(iso).or_else(|| {
        DateTime::parse_from_rfc3339(iso)
            .ok()
            .map(|t| t.timestamp_millis())
    })
}

/// [`ms_of`] of an optional time.
pub(crate) fn ms(iso: Option<&str>) -> Option<i64> {
    iso.and_then(ms_of)
}

/// The UTC time of epoch milliseconds (the epoch itself when out of range).
pub(crate) fn utc(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

/// "1 PR", "3 PRs".
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The middle of whole numbers (seconds); for an even count the mean of the middle two,
/// rounded down. `None` for none.
pub fn median_i64(values: &mut [i64]) -> Option<i64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => {
            let (a, b) = (i128::from(values[n / 2 - 1]), i128::from(values[n / 2]));
            Some((a + b).div_euclid(2) as i64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_epoch_milliseconds() {
        assert_eq!(ms_of("1970-01-01T00:00:01.500Z"), Some(1500));
        assert_eq!(ms_of("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(ms_of("yesterday"), None);
        assert_eq!(ms(None), None);
    }

    /// The drawing path end to end on 10,000 reports: a series, its pixels, two points per
    /// column at most, one path. Not timed; each step is one pass.
    #[test]
    fn ten_thousand_reports_draw_as_a_path_of_two_points_per_column() {
        use super::downsample::{downsample, to_pixels};
        use super::path::step_path;
        use super::scale::{LinearScale, TimeScale};
        use super::spend_series::{spend_series, SpendPoint};
        let start = ms_of("2026-11-01T00:00:00Z").unwrap();
        let points: Vec<SpendPoint> = (0..10_000i64)
            .map(|i| SpendPoint {
                at: utc(start + i * 60_000).to_rfc3339(),
                cost_usd: format!("0.{:02}", i % 100),
                started_at: None,
                mission_id: None,
                workspace_id: None,
            })
            .collect();
        let now = start + 10_000 * 60_000;
        let series = spend_series(&points, None, None, now, 0);
        assert_eq!(series.steps.len(), 10_001);
        let x = TimeScale::new((start, now), (0.0, 800.0), 0);
        let top = series.total.as_f64();
        let y = LinearScale::new((0.0, top), (300.0, 0.0)).nice(5);
        let line: Vec<(f64, f64)> = series
            .steps
            .iter()
            .map(|s| (s.at_ms as f64, s.spent.as_f64()))
            .collect();
        let drawn = downsample(&to_pixels(&line, &x.scale, &y));
        assert!(drawn.len() <= 2 * 801 + 2, "{}", drawn.len());
        let d = step_path(&drawn);
        assert!(d.starts_with("M0 300"), "{}", &d[..20]);
        assert_eq!(d.matches('H').count(), drawn.len() - 1);
    }

    #[test]
    fn the_median_of_seconds() {
        assert_eq!(median_i64(&mut []), None);
        assert_eq!(median_i64(&mut [7]), Some(7));
        assert_eq!(median_i64(&mut [9, 1, 5]), Some(5));
        assert_eq!(median_i64(&mut [4, 1, 2, 3]), Some(2));
        assert_eq!(median_i64(&mut [-3, 0]), Some(-2));
    }
}
