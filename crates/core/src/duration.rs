//! Durations in words, one style everywhere: the two largest units, compact ("45s", "12m",
//! "3h 5m", "2d 4h"). A span says how long something took or has run; `ago` and `until`
//! place a moment relative to now, to the minute. Inputs are whole seconds, which both the
//! server (chrono) and the dashboard (JavaScript milliseconds) have at hand.

const MINUTE: i64 = 60;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// Two units at most, the smaller left out when it is zero: "45s", "12m", "3h 5m", "3h",
/// "2d 4h". A negative span (clocks disagree) reads as "0s".
pub fn span(seconds: i64) -> String {
    let s = seconds.max(0);
    let pair = |big: i64, big_unit: &str, small: i64, small_unit: &str| {
        if small == 0 {
            format!("{big}{big_unit}")
        } else {
            format!("{big}{big_unit} {small}{small_unit}")
        }
    };
    match s {
        0..MINUTE => format!("{s}s"),
        MINUTE..HOUR => format!("{}m", s / MINUTE),
        HOUR..DAY => pair(s / HOUR, "h", s % HOUR / MINUTE, "m"),
        _ => pair(s / DAY, "d", s % DAY / HOUR, "h"),
    }
}

/// An axis's tick of `hours` in the same style ("0h", "12m", "1h 30m"): a fraction of an
/// hour is said in minutes, never rounded to a repeated "0h".
pub fn hours_tick(hours: f64) -> String {
    if hours <= 0.0 {
        return "0h".into();
    }
    span((hours * HOUR as f64).round() as i64)
}

/// A moment `seconds` in the past: "just now" within the minute (or in the future, when
/// clocks disagree), else "5m ago", "3h 5m ago", "2d 4h ago". Whole minutes, rounded down.
pub fn ago(seconds: i64) -> String {
    if seconds < MINUTE {
        "just now".into()
    } else {
        format!("{} ago", span(seconds - seconds % MINUTE))
    }
}

/// A moment `seconds` ahead: "due" once it has come, else "in 5m", "in 3h 5m" (whole
/// minutes, rounded up, so a moment 30 seconds away is "in 1m").
pub fn until(seconds: i64) -> String {
    if seconds <= 0 {
        "due".into()
    } else {
        let minutes = seconds.saturating_add(MINUTE - 1) / MINUTE;
        format!("in {}", span(minutes.saturating_mul(MINUTE)))
    }
}

/// Whole seconds from `from_ms` to `to_ms` (epoch milliseconds, as JavaScript's clock
/// gives them), rounded down; 0 when either is not a number.
pub fn seconds_between(from_ms: f64, to_ms: f64) -> i64 {
    let seconds = ((to_ms - from_ms) / 1000.0).floor();
    if seconds.is_finite() {
        seconds as i64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hour_ticks_say_minutes_below_an_hour() {
        let ticks: Vec<String> = [0.0, 0.2, 0.4, 1.0, 1.5, 2.0].map(hours_tick).into();
        assert_eq!(ticks, ["0h", "12m", "24m", "1h", "1h 30m", "2h"]);
    }

    #[test]
    fn spans_use_the_two_largest_units() {
        assert_eq!(span(0), "0s");
        assert_eq!(span(45), "45s");
        assert_eq!(span(12 * MINUTE + 59), "12m");
        assert_eq!(span(3 * HOUR + 5 * MINUTE + 30), "3h 5m");
        assert_eq!(span(3 * HOUR + 20), "3h");
        assert_eq!(span(2 * DAY + 4 * HOUR + 59 * MINUTE), "2d 4h");
        assert_eq!(span(2 * DAY + 30 * MINUTE), "2d");
        assert_eq!(span(-5), "0s");
    }

    #[test]
    fn ago_is_to_the_minute() {
        assert_eq!(ago(-30), "just now");
        assert_eq!(ago(59), "just now");
        assert_eq!(ago(60), "1m ago");
        assert_eq!(ago(5 * MINUTE + 59), "5m ago");
        assert_eq!(ago(3 * HOUR + 5 * MINUTE + 59), "3h 5m ago");
        assert_eq!(ago(2 * HOUR + 30), "2h ago");
        assert_eq!(ago(2 * DAY + 4 * HOUR), "2d 4h ago");
    }

    #[test]
    fn until_rounds_up_and_says_due_once_passed() {
        assert_eq!(until(-10), "due");
        assert_eq!(until(0), "due");
        assert_eq!(until(30), "in 1m");
        assert_eq!(until(5 * MINUTE), "in 5m");
        assert_eq!(until(3 * HOUR + 4 * MINUTE + 1), "in 3h 5m");
        assert_eq!(until(DAY), "in 1d");
        assert_eq!(
            until(i64::MAX),
            format!("in {}", span(i64::MAX / MINUTE * MINUTE))
        );
    }

    #[test]
    fn seconds_between_javascript_times() {
        assert_eq!(seconds_between(1_000.0, 62_999.0), 61);
        assert_eq!(seconds_between(62_000.0, 1_000.0), -61);
        assert_eq!(seconds_between(f64::NAN, 1_000.0), 0);
    }
}
