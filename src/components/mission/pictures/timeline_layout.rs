//! Where the timeline draws: a column of titles, then the plot of bars, a lane each, with a
//! heading row above each group; and how far it is zoomed and scrolled, kept as the part
//! of the whole history in view, so a refresh that lengthens the history keeps the view.

use super::frame::{Frame, BOTTOM, RIGHT, SHORTEST, TOP, WIDTH};
use buildd_core::insights::scale::TimeScale;
use buildd_core::insights::timeline::{Bar, Timeline};

/// The titles' column.
pub const LABEL_W: f64 = 190.0;
/// The plot's width, right of the titles.
pub const PLOT_W: f64 = WIDTH - RIGHT - LABEL_W;
/// A lane's height and a bar's within it.
pub const LANE: f64 = 20.0;
pub const BAR: f64 = 12.0;
/// The narrowest view: a hundredth of the history.
const MIN_SPAN: f64 = 0.01;

/// The top of row `row` (group headings and lanes counted alike).
pub fn row_y(row: u32) -> f64 {
    TOP + f64::from(row) * LANE
}

/// Rows are drawn in blocks of this many: those in view and a block either side, so a
/// scroll within a block draws nothing new. The box shows about 25 lanes, so a block of 50
/// keeps a screenful either side. Every lane of 10,000 drawn at once took the browser about
/// a second.
const BLOCK: u32 = 50;

/// The rows to draw, `from..to`, for a box showing `top..bottom` (px) of the drawing, which
/// it shows at `px_per_unit` pixels a viewBox unit.
pub fn rows_drawn(top: f64, bottom: f64, px_per_unit: f64) -> (u32, u32) {
    let row = |px: f64| ((px / px_per_unit.max(f64::EPSILON) - TOP) / LANE).max(0.0) as u32;
    let first = row(top) / BLOCK * BLOCK;
    let last = row(bottom) / BLOCK * BLOCK + BLOCK;
    (first.saturating_sub(BLOCK), last + BLOCK)
}

/// The row of `bar`: its lane, below its own group's heading and those above it.
pub fn bar_row(bar: &Bar) -> u32 {
    bar.lane + bar.group as u32 + 1
}

/// The drawing's height for `tl`: every lane and heading, and the time axis.
pub fn height(tl: &Timeline) -> f64 {
    row_y((tl.bars.len() + tl.groups.len()) as u32) + BOTTOM
}

/// The history's first and last moment, a second apart at least.
fn history(tl: &Timeline) -> (i64, i64) {
    (tl.start_ms, tl.end_ms.max(tl.start_ms + SHORTEST))
}

/// The whole history across the plot, as the bars are drawn before any zoom.
pub fn base(tl: &Timeline) -> TimeScale {
    TimeScale::new(history(tl), (0.0, PLOT_W), 0)
}

/// The part of the history in view, from 0 (its start) to 1 (its end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub from: f64,
    pub to: f64,
}

impl Default for View {
    fn default() -> Self {
        View { from: 0.0, to: 1.0 }
    }
}

impl View {
    /// `factor` times closer (below 1: further), keeping the point `around` (0..1 across
    /// the view) where it is; never past the history's ends.
    pub fn zoomed(self, factor: f64, around: f64) -> View {
        let span = self.to - self.from;
        let new_span = (span / factor).clamp(MIN_SPAN, 1.0);
        let pivot = self.from + around.clamp(0.0, 1.0) * span;
        let from = pivot - around.clamp(0.0, 1.0) * new_span;
        View {
            from,
            to: from + new_span,
        }
        .within()
    }

    /// Moved by `by` views (negative: back in time).
    pub fn panned(self, by: f64) -> View {
        let shift = by * (self.to - self.from);
        View {
            from: self.from + shift,
            to: self.to + shift,
        }
        .within()
    }

    fn within(self) -> View {
        let span = self.to - self.from;
        let from = self.from.clamp(0.0, 1.0 - span);
        View {
            from,
            to: from + span,
        }
    }

    /// The bars' transform: the view stretched across the plot.
    pub fn transform(self) -> String {
        let k = 1.0 / (self.to - self.from);
        format!(
            "translate({:.2} 0) scale({k:.4} 1)",
            -self.from * PLOT_W * k
        )
    }

    /// The time axis of the view, `height` tall, across the plot right of the titles.
    pub fn frame(self, tl: &Timeline, height: f64) -> Frame {
        let (start, end) = history(tl);
        let (start, end) = (start as f64, end as f64);
        let at = |part: f64| (start + part * (end - start)).round() as i64;
        Frame::across(
            at(self.from),
            at(self.to),
            (LABEL_W, LABEL_W + PLOT_W),
            1.0,
            height,
        )
    }
}
