//! US dollars as whole micro-dollars. Buildd stores a worker's `costUsd` as `decimal(10,6)`
//! and a budget as `decimal(10,2)`, so a micro-dollar holds either exactly: sums never drift
//! the way adding floats does, and "spend ≥ budget" compares what Buildd's columns hold.
//! People see cents, rounded half away from zero.

use serde_json::Value;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};

const PER_DOLLAR: i64 = 1_000_000;
const PER_CENT: i64 = 10_000;

/// An amount of US dollars, in micro-dollars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Usd(i64);

impl Usd {
    pub const ZERO: Usd = Usd(0);

    pub const fn from_micros(micros: i64) -> Usd {
        Usd(micros)
    }

    pub const fn from_cents(cents: i64) -> Usd {
        Usd(cents.saturating_mul(PER_CENT))
    }

    pub const fn micros(self) -> i64 {
        self.0
    }

    /// A JSON number's dollars, to the nearest micro-dollar; `None` when it is not finite or
    /// beyond what an `i64` of micro-dollars holds.
    pub fn from_f64(dollars: f64) -> Option<Usd> {
        let micros = (dollars * PER_DOLLAR as f64).round();
        // `i64::MAX as f64` is 2^63: anything at or beyond it does not fit.
        (micros.is_finite() && micros.abs() < i64::MAX as f64).then_some(Usd(micros as i64))
    }

    /// A decimal string as Buildd sends money ("5.00", "0.012300"), read exactly; more than
    /// six places round half away from zero. A leading `$` is allowed (people type one).
    /// Other spellings a float parser accepts ("1e2") are read as floats; "NaN", "inf" and
    /// anything else unreadable are `None`.
    pub fn parse(text: &str) -> Option<Usd> {
        let text = text.trim();
        let text = text.strip_prefix('$').unwrap_or(text);
        parse_decimal(text).or_else(|| text.parse::<f64>().ok().and_then(Usd::from_f64))
    }

    /// [`Usd::parse`] of decimals only ("5.00", "$0.7"), with no float fallback: for code that
    /// must not carry a float parser (the dashboard's first download).
    pub fn parse_decimal(text: &str) -> Option<Usd> {
        let text = text.trim();
        parse_decimal(text.strip_prefix('$').unwrap_or(text))
    }

    /// A JSON number or a decimal string (Buildd sends both: a number in, a string out).
    pub fn from_json(value: &Value) -> Option<Usd> {
        match value {
            Value::Number(n) => n.as_f64().and_then(Usd::from_f64),
            Value::String(s) => Usd::parse(s),
            _ => None,
        }
    }

    pub fn as_f64(self) -> f64 {
        self.0 as f64 / PER_DOLLAR as f64
    }

    pub fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// Whole cents, rounded half away from zero.
    pub fn cents(self) -> i64 {
        round_div(self.0, PER_CENT)
    }

    /// The amount rounded to whole cents, as a `decimal(10,2)` column stores it.
    pub fn round_to_cents(self) -> Usd {
        Usd::from_cents(self.cents())
    }

    /// Whole cents, rounded down: what was spent, never overstated.
    pub fn floor_cents(self) -> i64 {
        self.0.div_euclid(PER_CENT)
    }

    /// The digits with `places` decimals (at most six), rounded half away from zero, with
    /// no `$`: `fixed(4)` of $1.4 is "1.4000", as JavaScript's `toFixed(4)` writes it.
    pub fn fixed(self, places: u32) -> String {
        let places = places.min(6);
        let unit = 10_i64.pow(6 - places);
        let scaled = round_div(self.0, unit);
        let sign = if scaled < 0 { "-" } else { "" };
        let scaled = scaled.unsigned_abs();
        let whole = scaled / 10_u64.pow(places);
        if places == 0 {
            return format!("{sign}{whole}");
        }
        let frac = scaled % 10_u64.pow(places);
        format!("{sign}{whole}.{frac:0width$}", width = places as usize)
    }

    /// Six decimals, as Buildd sends a worker's `costUsd` ("0.012300").
    pub fn to_decimal_string(self) -> String {
        self.fixed(6)
    }

    /// `self × n`, saturating.
    pub fn times(self, n: u64) -> Usd {
        Usd(self.0.saturating_mul(i64::try_from(n).unwrap_or(i64::MAX)))
    }
}

/// `n / d` rounded half away from zero.
fn round_div(n: i64, d: i64) -> i64 {
    let (q, r) = (n / d, n % d);
    if r.unsigned_abs() * 2 >= d.unsigned_abs() {
        q + n.signum()
    } else {
        q
    }
}

/// `[+-]?digits[.digits]` or `[+-]?.digits`, exactly; `None` for anything else.
fn parse_decimal(text: &str) -> Option<Usd> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !all_digits(whole) || !all_digits(frac) {
        return None;
    }
    let mut micros: i64 = 0;
    for b in whole.bytes() {
        micros = micros.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    micros = micros.checked_mul(PER_DOLLAR)?;
    let frac = frac.as_bytes();
    let mut scale = PER_DOLLAR / 10;
    for &b in frac.iter().take(6) {
        micros = micros.checked_add(i64::from(b - b'0') * scale)?;
        scale /= 10;
    }
    if frac.get(6).is_some_and(|&b| b >= b'5') {
        micros = micros.checked_add(1)?;
    }
    Some(Usd(if negative { -micros } else { micros }))
}

/// "$1.40", "-$0.05": cents, rounded half away from zero.
impl fmt::Display for Usd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cents = self.cents();
        let sign = if cents < 0 { "-" } else { "" };
        let cents = cents.unsigned_abs();
        write!(f, "{sign}${}.{:02}", cents / 100, cents % 100)
    }
}

impl Add for Usd {
    type Output = Usd;
    fn add(self, other: Usd) -> Usd {
        Usd(self.0.saturating_add(other.0))
    }
}

impl AddAssign for Usd {
    fn add_assign(&mut self, other: Usd) {
        *self = *self + other;
    }
}

impl Sub for Usd {
    type Output = Usd;
    fn sub(self, other: Usd) -> Usd {
        Usd(self.0.saturating_sub(other.0))
    }
}

impl Sum for Usd {
    fn sum<I: Iterator<Item = Usd>>(iter: I) -> Usd {
        iter.fold(Usd::ZERO, Add::add)
    }
}

impl<'a> Sum<&'a Usd> for Usd {
    fn sum<I: Iterator<Item = &'a Usd>>(iter: I) -> Usd {
        iter.copied().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decimal_strings_read_exactly() {
        assert_eq!(Usd::parse("5.00"), Some(Usd::from_cents(500)));
        assert_eq!(Usd::parse("0.012300"), Some(Usd::from_micros(12_300)));
        assert_eq!(Usd::parse(" 25 "), Some(Usd::from_cents(2500)));
        assert_eq!(Usd::parse(".5"), Some(Usd::from_cents(50)));
        assert_eq!(Usd::parse("5."), Some(Usd::from_cents(500)));
        assert_eq!(Usd::parse("-1.5"), Some(Usd::from_cents(-150)));
        assert_eq!(Usd::parse("$5"), Some(Usd::from_cents(500)));
        // A seventh decimal rounds.
        assert_eq!(Usd::parse("0.0000005"), Some(Usd::from_micros(1)));
        assert_eq!(Usd::parse("0.0000004"), Some(Usd::ZERO));
    }

    #[test]
    fn decimals_alone_read_without_the_float_fallback() {
        assert_eq!(Usd::parse_decimal(" $0.700000"), Some(Usd::from_cents(70)));
        assert_eq!(Usd::parse_decimal("25"), Some(Usd::from_cents(2500)));
        assert_eq!(Usd::parse_decimal("1e2"), None);
        assert_eq!(Usd::parse_decimal("NaN"), None);
    }

    #[test]
    fn other_spellings_are_read_as_floats_or_refused() {
        assert_eq!(Usd::parse("1e2"), Some(Usd::from_cents(10_000)));
        for bad in [
            "",
            ".",
            "abc",
            "NaN",
            "inf",
            "-infinity",
            "1.2.3",
            "$",
            "5$",
            "1e400",
        ] {
            assert_eq!(Usd::parse(bad), None, "{bad}");
        }
        assert_eq!(Usd::parse("99999999999999999999"), None);
    }

    #[test]
    fn json_numbers_and_strings_both_read() {
        assert_eq!(
            Usd::from_json(&json!(0.0123)),
            Some(Usd::from_micros(12_300))
        );
        assert_eq!(Usd::from_json(&json!("25.00")), Some(Usd::from_cents(2500)));
        assert_eq!(Usd::from_json(&json!(25)), Some(Usd::from_cents(2500)));
        assert_eq!(Usd::from_json(&json!(null)), None);
        assert_eq!(Usd::from_json(&json!(true)), None);
    }

    #[test]
    fn floats_summed_as_micros_do_not_drift() {
        let tenth = Usd::from_f64(0.1).unwrap();
        let sum: Usd = std::iter::repeat_n(tenth, 3).sum();
        assert_eq!(sum, Usd::from_f64(0.3).unwrap());
        assert_ne!(0.1 + 0.1 + 0.1, 0.3);
        assert_eq!(Usd::from_f64(f64::NAN), None);
        assert_eq!(Usd::from_f64(f64::INFINITY), None);
        assert_eq!(Usd::from_f64(1e300), None);
    }

    #[test]
    fn display_is_cents_rounded_half_away_from_zero() {
        assert_eq!(Usd::from_cents(140).to_string(), "$1.40");
        assert_eq!(Usd::from_micros(1_405_000).to_string(), "$1.41");
        assert_eq!(Usd::from_micros(1_404_999).to_string(), "$1.40");
        assert_eq!(Usd::from_micros(-50_000).to_string(), "-$0.05");
        assert_eq!(Usd::from_micros(-4_999).to_string(), "$0.00");
        assert_eq!(Usd::ZERO.to_string(), "$0.00");
        assert_eq!(Usd::from_cents(123_456).to_string(), "$1234.56");
    }

    #[test]
    fn fixed_places_match_to_fixed() {
        let amount = Usd::from_micros(1_400_050);
        assert_eq!(amount.fixed(4), "1.4001");
        assert_eq!(amount.fixed(2), "1.40");
        assert_eq!(amount.fixed(0), "1");
        assert_eq!(amount.fixed(9), "1.400050");
        assert_eq!(Usd::from_micros(-12_300).fixed(4), "-0.0123");
        assert_eq!(Usd::from_micros(12_300).to_decimal_string(), "0.012300");
    }

    #[test]
    fn cents_round_and_floor() {
        let amount = Usd::from_micros(1_405_000);
        assert_eq!(amount.cents(), 141);
        assert_eq!(amount.floor_cents(), 140);
        assert_eq!(amount.round_to_cents(), Usd::from_cents(141));
        assert_eq!(Usd::from_micros(-1).floor_cents(), -1);
    }

    #[test]
    fn arithmetic_saturates() {
        assert_eq!(Usd::from_cents(140).times(3), Usd::from_cents(420));
        assert_eq!(
            Usd::from_micros(i64::MAX) + Usd::from_micros(1),
            Usd::from_micros(i64::MAX)
        );
        assert_eq!(
            Usd::from_cents(1).times(u64::MAX),
            Usd::from_micros(i64::MAX)
        );
        assert_eq!(
            Usd::from_cents(500) - Usd::from_cents(140),
            Usd::from_cents(360)
        );
    }
}
