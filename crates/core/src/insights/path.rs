//! SVG path strings, written in one pass: each coordinate to a tenth of a pixel (finer is
//! invisible and only lengthens the string), without formatting machinery per number.

/// Builds a path's `d` attribute.
#[derive(Clone, Debug, Default)]
pub struct PathBuilder {
    d: String,
}

impl PathBuilder {
    /// Room for about `commands` commands.
    pub fn with_capacity(commands: usize) -> Self {
        Self {
            d: String::with_capacity(commands * 14),
        }
    }

    fn command(&mut self, c: char) {
        if !self.d.is_empty() {
            self.d.push(' ');
        }
        self.d.push(c);
    }

    fn number(&mut self, v: f64) {
        // Tenths as a whole number; a value that is not finite is drawn at 0.
        let tenths = if v.is_finite() {
            (v * 10.0).round() as i64
        } else {
            0
        };
        if tenths < 0 {
            self.d.push('-');
        }
        let tenths = tenths.unsigned_abs();
        push_u64(&mut self.d, tenths / 10);
        if tenths % 10 != 0 {
            self.d.push('.');
            self.d.push(char::from(b'0' + (tenths % 10) as u8));
        }
    }

    pub fn move_to(&mut self, x: f64, y: f64) -> &mut Self {
        self.command('M');
        self.number(x);
        self.d.push(' ');
        self.number(y);
        self
    }

    pub fn line_to(&mut self, x: f64, y: f64) -> &mut Self {
        self.command('L');
        self.number(x);
        self.d.push(' ');
        self.number(y);
        self
    }

    /// A horizontal line to `x`.
    pub fn h(&mut self, x: f64) -> &mut Self {
        self.command('H');
        self.number(x);
        self
    }

    /// A vertical line to `y`.
    pub fn v(&mut self, y: f64) -> &mut Self {
        self.command('V');
        self.number(y);
        self
    }

    pub fn close(&mut self) -> &mut Self {
        self.command('Z');
        self
    }

    pub fn finish(self) -> String {
        self.d
    }
}

fn push_u64(s: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    s.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// A line through `points` (in pixels).
pub fn line_path(points: &[(f64, f64)]) -> String {
    let mut p = PathBuilder::with_capacity(points.len());
    for (i, &(x, y)) in points.iter().enumerate() {
        if i == 0 {
            p.move_to(x, y);
        } else {
            p.line_to(x, y);
        }
    }
    p.finish()
}

/// A step line through `points`: each value holds until the next point's x.
pub fn step_path(points: &[(f64, f64)]) -> String {
    let mut p = PathBuilder::with_capacity(2 * points.len());
    for (i, &(x, y)) in points.iter().enumerate() {
        if i == 0 {
            p.move_to(x, y);
        } else {
            p.h(x).v(y);
        }
    }
    p.finish()
}

/// The closed area between two step lines over the same `xs`, `upper` forward and `lower`
/// back: one band of a stacked step chart (the burn-up's).
pub fn step_band_path(xs: &[f64], upper: &[f64], lower: &[f64]) -> String {
    let n = xs.len().min(upper.len()).min(lower.len());
    if n == 0 {
        return String::new();
    }
    let mut p = PathBuilder::with_capacity(4 * n + 2);
    p.move_to(xs[0], upper[0]);
    for i in 1..n {
        p.h(xs[i]).v(upper[i]);
    }
    p.v(lower[n - 1]);
    for i in (0..n - 1).rev() {
        p.v(lower[i]).h(xs[i]);
    }
    p.close();
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_to_a_tenth() {
        let mut p = PathBuilder::default();
        p.move_to(0.0, 12.34)
            .line_to(-0.04, -3.25)
            .line_to(f64::NAN, 100.0);
        assert_eq!(p.finish(), "M0 12.3 L0 -3.3 L0 100");
        let mut big = PathBuilder::default();
        big.h(1_234_567.891).v(-0.5).close();
        assert_eq!(big.finish(), "H1234567.9 V-0.5 Z");
    }

    #[test]
    fn lines_and_steps() {
        assert_eq!(line_path(&[]), "");
        assert_eq!(line_path(&[(1.0, 2.0)]), "M1 2");
        assert_eq!(line_path(&[(0.0, 10.0), (5.0, 0.0)]), "M0 10 L5 0");
        assert_eq!(
            step_path(&[(0.0, 10.0), (5.0, 4.0), (9.0, 0.0)]),
            "M0 10 H5 V4 H9 V0"
        );
        assert_eq!(step_path(&[(3.0, 3.0)]), "M3 3");
    }

    #[test]
    fn a_band_goes_along_the_top_and_back_along_the_bottom() {
        let xs = [0.0, 10.0, 20.0];
        assert_eq!(
            step_band_path(&xs, &[8.0, 6.0, 2.0], &[10.0, 9.0, 7.0]),
            "M0 8 H10 V6 H20 V2 V7 V9 H10 V10 H0 Z"
        );
        assert_eq!(step_band_path(&[], &[], &[]), "");
        assert_eq!(step_band_path(&[5.0], &[1.0], &[3.0]), "M5 1 V3 Z");
    }

    #[test]
    fn ten_thousand_points_make_one_path() {
        let points: Vec<(f64, f64)> = (0..10_000).map(|i| (i as f64 * 0.06, 1.5)).collect();
        let d = line_path(&points);
        assert_eq!(d.matches('L').count(), 9_999);
        assert!(d.starts_with("M0 1.5 L0.1 1.5"));
    }
}
