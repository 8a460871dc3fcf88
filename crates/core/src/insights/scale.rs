//! The scales every picture shares: linear (a value to a pixel and back, for the pointer)
//! and time (epoch milliseconds), each with "nice" ticks: 1-2-5 steps for numbers; minutes,
//! hours, days or weeks on the local clock for times, as the span asks.

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
const WEEK: i64 = 7 * DAY;
/// 1970-01-05, the first Monday after the epoch.
const FIRST_MONDAY: i64 = 4 * DAY;
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A tick: where it stands (in the domain) and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub value: f64,
    pub label: String,
}

/// A linear map from `domain` to `range` (either may run backwards, as a y axis does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearScale {
    pub domain: (f64, f64),
    pub range: (f64, f64),
}

impl LinearScale {
    pub fn new(domain: (f64, f64), range: (f64, f64)) -> Self {
        Self { domain, range }
    }

    /// The pixel of `value`; the middle of the range when the domain is a single value.
    pub fn map(&self, value: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if d1 == d0 {
            return (r0 + r1) / 2.0;
        }
        r0 + (value - d0) / (d1 - d0) * (r1 - r0)
    }

    /// The value at `pixel`, for a pointer; the domain's start when the range is a point.
    pub fn invert(&self, pixel: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if r1 == r0 {
            return d0;
        }
        d0 + (pixel - r0) / (r1 - r0) * (d1 - d0)
    }

    /// About `count` ticks at a 1-2-5 step ([`nice_step`]) within the domain.
    pub fn ticks(&self, count: usize) -> Vec<Tick> {
        let (lo, hi) = ordered(self.domain);
        if lo == hi {
            return vec![Tick {
                value: lo,
                label: number_label(lo, 1.0),
            }];
        }
        let step = nice_step(hi - lo, count);
        // Whole multiples of the step, so ticks do not drift; a hair of slack at the ends.
        let first = (lo / step - 1e-9).ceil() as i64;
        let last = (hi / step + 1e-9).floor() as i64;
        (first..=last)
            .map(|i| {
                let value = i as f64 * step;
                Tick {
                    value,
                    label: number_label(value, step),
                }
            })
            .collect()
    }

    /// The scale with its domain widened to whole steps of its ticks, so the axis ends on a
    /// tick. A single value widens to the step around it (or 0..1 for zero).
    pub fn nice(&self, count: usize) -> LinearScale {
        let (lo, hi) = ordered(self.domain);
        let (lo, hi) = if lo == hi {
            if lo == 0.0 {
                (0.0, 1.0)
            } else {
                (lo.min(0.0), hi.max(0.0))
            }
        } else {
            (lo, hi)
        };
        let step = nice_step(hi - lo, count);
        let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        let domain = if self.domain.0 <= self.domain.1 {
            (lo, hi)
        } else {
            (hi, lo)
        };
        LinearScale::new(domain, self.range)
    }
}

fn ordered((a, b): (f64, f64)) -> (f64, f64) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The step of 1, 2 or 5 × 10ⁿ that cuts `span` into nearest `count` steps (the thresholds
/// are the geometric means between them, so 5.2 steps' worth rounds to 5, not 10).
pub fn nice_step(span: f64, count: usize) -> f64 {
    let raw = span.abs() / count.max(1) as f64;
    if !raw.is_finite() || raw <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let error = raw / magnitude;
    let factor = if error >= 50f64.sqrt() {
        10.0
    } else if error >= 10f64.sqrt() {
        5.0
    } else if error >= 2f64.sqrt() {
        2.0
    } else {
        1.0
    };
    factor * magnitude
}

/// A number with as many decimals as its step needs: "0", "2.5", "0.05".
fn number_label(value: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    // `+ 0.0` turns a negative zero into zero, so no tick reads "-0".
    format!("{:.*}", decimals, value + 0.0)
}

/// The least and greatest of `values`, ignoring those that are not finite.
pub fn extent(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |acc, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
}

/// A time axis: epoch milliseconds to pixels, its ticks on the clock of a zone `offset_secs`
/// east of UTC (the browser's own, or 0 for UTC).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeScale {
    pub scale: LinearScale,
    pub offset_secs: i32,
}

/// The steps a time axis ticks at, finest first.
const TIME_STEPS: [i64; 13] = [
    MINUTE,
    5 * MINUTE,
    15 * MINUTE,
    30 * MINUTE,
    HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    DAY,
    2 * DAY,
    WEEK,
    2 * WEEK,
    4 * WEEK,
];

/// The finest clock step that cuts `span_ms` into at most `count` steps (whole weeks
/// beyond four).
pub fn time_step(span_ms: i64, count: usize) -> i64 {
    let count = count.max(1) as i64;
    TIME_STEPS
        .into_iter()
        .find(|&s| span_ms / s <= count)
        .unwrap_or_else(|| WEEK * (span_ms / (WEEK * count) + 1))
}

impl TimeScale {
    pub fn new(domain_ms: (i64, i64), range: (f64, f64), offset_secs: i32) -> Self {
        Self {
            scale: LinearScale::new((domain_ms.0 as f64, domain_ms.1 as f64), range),
            offset_secs,
        }
    }

    pub fn map(&self, ms: i64) -> f64 {
        self.scale.map(ms as f64)
    }

    /// The time at `pixel`, to the millisecond.
    pub fn invert(&self, pixel: f64) -> i64 {
        self.scale.invert(pixel).round() as i64
    }

    /// About `count` ticks on the local clock: on the minute, hour, midnight or Monday as
    /// the step is; "14:00" within a day, "29 Nov" at midnight and beyond.
    pub fn ticks(&self, count: usize) -> Vec<Tick> {
        let (lo, hi) = ordered(self.scale.domain);
        let (lo, hi) = (lo.ceil() as i64, hi.floor() as i64);
        let offset = i64::from(self.offset_secs) * 1000;
        if lo >= hi {
            return vec![Tick {
                value: lo as f64,
                label: time_label(lo + offset, DAY),
            }];
        }
        let step = time_step(hi - lo, count);
        // Weeks start on Monday; shorter steps divide a day, so align to local midnight.
        let anchor = if step >= WEEK { FIRST_MONDAY } else { 0 };
        let local_lo = lo + offset - anchor;
        let mut t = local_lo.div_euclid(step) * step + anchor - offset;
        if t < lo {
            t += step;
        }
        let mut ticks = Vec::new();
        while t <= hi {
            ticks.push(Tick {
                value: t as f64,
                label: time_label(t + offset, step),
            });
            t += step;
        }
        ticks
    }
}

/// A local time (epoch ms shifted to the zone) as a tick says it.
fn time_label(local_ms: i64, step: i64) -> String {
    let t = super::utc(local_ms);
    use chrono::{Datelike, Timelike};
    if step < DAY && local_ms.rem_euclid(DAY) != 0 {
        format!("{:02}:{:02}", t.hour(), t.minute())
    } else {
        format!("{} {}", t.day(), MONTHS[t.month0() as usize])
    }
}

/// A moment in words on the zone's clock, for text alternatives: "29 Nov 14:05".
pub fn moment_label(ms: i64, offset_secs: i32) -> String {
    let t = super::utc(ms + i64::from(offset_secs) * 1000);
    use chrono::{Datelike, Timelike};
    format!(
        "{} {} {:02}:{:02}",
        t.day(),
        MONTHS[t.month0() as usize],
        t.hour(),
        t.minute()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(ticks: &[Tick]) -> Vec<f64> {
        ticks.iter().map(|t| t.value).collect()
    }

    fn labels(ticks: &[Tick]) -> Vec<&str> {
        ticks.iter().map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn a_linear_scale_maps_and_inverts() {
        let y = LinearScale::new((0.0, 50.0), (200.0, 0.0));
        assert_eq!(y.map(0.0), 200.0);
        assert_eq!(y.map(25.0), 100.0);
        assert_eq!(y.invert(100.0), 25.0);
        assert_eq!(y.invert(y.map(13.0)), 13.0);
        // One value: the middle; no room: the start.
        let point = LinearScale::new((5.0, 5.0), (0.0, 100.0));
        assert_eq!((point.map(5.0), point.invert(30.0)), (50.0, 5.0));
        assert_eq!(LinearScale::new((0.0, 1.0), (10.0, 10.0)).invert(10.0), 0.0);
    }

    #[test]
    fn ticks_step_by_one_two_or_five() {
        assert_eq!(nice_step(10.0, 5), 2.0);
        assert_eq!(nice_step(1.0, 10), 0.1);
        assert_eq!(nice_step(37.0, 5), 10.0);
        assert_eq!(nice_step(0.0, 5), 1.0);
        let ticks = LinearScale::new((0.0, 1.0), (0.0, 1.0)).ticks(5);
        assert_eq!(
            values(&ticks),
            [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(labels(&ticks), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        let money = LinearScale::new((-3.0, 23.0), (0.0, 1.0)).ticks(5);
        assert_eq!(labels(&money), ["0", "5", "10", "15", "20"]);
        let small = LinearScale::new((0.0, 0.12), (0.0, 1.0)).ticks(3);
        assert_eq!(labels(&small), ["0.00", "0.05", "0.10"]);
        // A reversed domain ticks the same.
        assert_eq!(
            LinearScale::new((10.0, 0.0), (0.0, 1.0)).ticks(2),
            LinearScale::new((0.0, 10.0), (0.0, 1.0)).ticks(2)
        );
        assert_eq!(
            labels(&LinearScale::new((3.0, 3.0), (0.0, 1.0)).ticks(5)),
            ["3"]
        );
    }

    #[test]
    fn nice_widens_to_whole_steps() {
        let s = LinearScale::new((0.3, 9.2), (0.0, 100.0)).nice(5);
        assert_eq!(s.domain, (0.0, 10.0));
        assert_eq!(
            LinearScale::new((0.0, 0.0), (0.0, 1.0)).nice(5).domain,
            (0.0, 1.0)
        );
        assert_eq!(
            LinearScale::new((7.0, 7.0), (0.0, 1.0)).nice(5).domain,
            (0.0, 7.0)
        );
        assert_eq!(extent([3.0, f64::NAN, -1.0, 2.0]), Some((-1.0, 3.0)));
        assert_eq!(extent([]), None);
    }

    fn ms(iso: &str) -> i64 {
        super::super::ms_of(iso).unwrap()
    }

    #[test]
    fn time_ticks_fall_on_the_clock() {
        let day = TimeScale::new(
            (ms("2026-11-29T09:20:00Z"), ms("2026-11-30T02:00:00Z")),
            (0.0, 600.0),
            0,
        );
        let ticks = day.ticks(6);
        assert_eq!(
            labels(&ticks),
            ["12:00", "15:00", "18:00", "21:00", "30 Nov"]
        );
        assert_eq!(ticks[0].value, ms("2026-11-29T12:00:00Z") as f64);
        // The same span seen from UTC+01:00 ticks on its own clock.
        let paris = TimeScale {
            offset_secs: 3600,
            ..day
        };
        assert_eq!(labels(&paris.ticks(6))[..2], ["12:00", "15:00"]);
        assert_eq!(paris.ticks(6)[0].value, ms("2026-11-29T11:00:00Z") as f64);
        // Weeks start on Monday.
        let weeks = TimeScale::new(
            (ms("2026-11-01T00:00:00Z"), ms("2026-12-31T00:00:00Z")),
            (0.0, 600.0),
            0,
        );
        assert_eq!(
            labels(&weeks.ticks(10)),
            [
                "2 Nov", "9 Nov", "16 Nov", "23 Nov", "30 Nov", "7 Dec", "14 Dec", "21 Dec",
                "28 Dec"
            ]
        );
        assert_eq!(time_step(30 * MINUTE, 6), 5 * MINUTE);
        assert_eq!(time_step(400 * DAY, 4), 15 * WEEK);
    }

    #[test]
    fn a_time_scale_maps_inverts_and_ticks_one_moment() {
        let t = ms("2026-11-29T10:00:00Z");
        let s = TimeScale::new((t, t + HOUR), (0.0, 60.0), 0);
        assert_eq!(s.map(t + 30 * MINUTE), 30.0);
        assert_eq!(s.invert(15.0), t + 15 * MINUTE);
        let one = TimeScale::new((t, t), (0.0, 60.0), 0);
        assert_eq!(labels(&one.ticks(5)), ["29 Nov"]);
        assert_eq!(moment_label(t, 3600), "29 Nov 11:00");
    }
}
