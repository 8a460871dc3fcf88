//! The times the wire carries, `2026-01-01T00:12:00.000Z`, read straight from their digits.
//! A mission's pictures read some 40,000 of them; chrono's general RFC 3339 parser took
//! about a tenth of the Pictures tab's time in the browser. Any other spelling (an offset,
//! a leap second, a lowercase `t`) is left to chrono, so both read every time alike.

/// Epoch milliseconds of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, or `None` for any other shape
/// or an impossible date.
pub(super) fn utc_millis(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[b.len() - 1] != b'Z' {
        return None;
    }
    if [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')]
        .iter()
        .any(|&(at, c)| b[at] != c)
    {
        return None;
    }
    let number = |from: usize, to: usize| -> Option<i64> {
        b[from..to].iter().try_fold(0i64, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let fraction = &b[19..b.len() - 1];
    let millis = match fraction {
        [] => 0,
        [b'.', digits @ ..] if (1..=9).contains(&digits.len()) => {
            let mut ms = 0;
            for i in 0..3 {
                let d = digits.get(i).copied().unwrap_or(b'0');
                if !d.is_ascii_digit() {
                    return None;
                }
                ms = ms * 10 + i64::from(d - b'0');
            }
            if !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            ms
        }
        _ => return None,
    };
    let seconds = days_from_civil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second;
    Some(seconds * 1_000 + millis)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::utc_millis;
    use chrono::{DateTime, Duration, TimeZone, Utc};

    fn chrono_ms(s: &str) -> Option<i64> {
        DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|t| t.timestamp_millis())
    }

    #[test]
    fn reads_as_chrono_does_over_two_centuries() {
        let mut t = Utc.with_ymd_and_hms(1901, 1, 1, 0, 0, 0).unwrap();
        let end = Utc.with_ymd_and_hms(2101, 1, 1, 0, 0, 0).unwrap();
        let mut n = 0;
        while t < end {
            let wire = t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
            assert_eq!(utc_millis(&wire), Some(t.timestamp_millis()), "{wire}");
            for text in [
                t.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string(),
            ] {
                assert!(utc_millis(&text).is_some(), "{text}");
                assert_eq!(utc_millis(&text), chrono_ms(&text), "{text}");
            }
            // A prime step in ms walks every month, day, hour and millisecond digit.
            t += Duration::milliseconds(7_919_993_777);
            n += 1;
        }
        assert!(n > 700, "{n} times read");
    }

    #[test]
    fn leap_days_and_fractions() {
        for text in [
            "2024-02-29T23:59:59.999Z",
            "2000-02-29T00:00:00Z",
            "1970-01-01T00:00:00.1Z",
            "1969-12-31T23:59:59.5Z",
            "2026-01-01T00:12:00.123456789Z",
        ] {
            assert!(utc_millis(text).is_some(), "{text}");
            assert_eq!(utc_millis(text), chrono_ms(text), "{text}");
        }
    }

    #[test]
    fn other_shapes_are_left_to_chrono() {
        for text in [
            "2023-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-06-30T23:59:60Z",
            "2026-01-01T00:00:00+02:00",
            "2026-01-01t00:00:00z",
            "2026-01-01T00:00:00.Z",
            "2026-01-01T00:00:00.1234567890Z",
            "2026-01-01T00:00:00,5Z",
            "2026-01-01 00:00:00Z",
            "2026-1-01T00:00:00Z",
            "+2026-01-01T00:00:00Z",
            "",
        ] {
            assert_eq!(utc_millis(text), None, "{text}");
        }
    }
}
