//! What a bar chart draws: a column a category (a week, an hour), a bar a series in it, and
//! what each column says when hovered or focused.

use buildd_core::insights::scale::LinearScale;

use crate::components::mission::pictures::frame::{BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH};

/// The bars of a chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bars {
    /// Each column's label under it ("W48", "09").
    pub labels: Vec<String>,
    /// Each column's values, one a series (`None`: not known, not drawn).
    pub values: Vec<Vec<Option<f64>>>,
    /// What each column says, in words.
    pub said: Vec<String>,
    /// Columns drawn shaded behind (the active hours).
    pub shaded: Vec<bool>,
}

impl Bars {
    /// The value scale, up to the highest value (`least` at least, so ticks read).
    pub fn scale(&self, least: f64) -> LinearScale {
        let top = (self.values.iter().flatten().flatten())
            .copied()
            .fold(least, f64::max);
        LinearScale::new((0.0, top), (HEIGHT - BOTTOM, TOP)).nice(4)
    }

    /// Column `i`'s left edge and width.
    pub fn column(&self, i: usize) -> (f64, f64) {
        let n = self.labels.len().max(1) as f64;
        let step = (WIDTH - LEFT - RIGHT) / n;
        (LEFT + step * i as f64, step)
    }
}
