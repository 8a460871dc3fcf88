//! The frame every picture is drawn in: one width, one set of margins, time along the
//! bottom and a value up the side, both core's scales, so the pictures line up above one
//! another and tick on the reader's clock.

use buildd_core::insights::scale::{moment_label, LinearScale, TimeScale};

/// The drawing's width in viewBox units; the svg scales to its column.
pub const WIDTH: f64 = 720.0;
/// Room for the value labels on the left, and for the last time label on the right.
pub const LEFT: f64 = 56.0;
pub const RIGHT: f64 = 20.0;
pub const TOP: f64 = 12.0;
/// Room for the time labels under the plot.
pub const BOTTOM: f64 = 26.0;
/// The height of a chart of values (the timeline grows with its tasks).
pub const HEIGHT: f64 = 220.0;

/// The shortest span drawn, in milliseconds.
pub const SHORTEST: i64 = 1_000;

/// A picture's scales and the height it is drawn at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub x: TimeScale,
    pub y: LinearScale,
    pub height: f64,
}

impl Frame {
    /// `from..to` across the plot, `0..top` up it (widened to whole ticks). A single moment
    /// is given a second, so it is drawn rather than divided by nothing.
    pub fn new(from_ms: i64, to_ms: i64, top: f64) -> Frame {
        let to_ms = to_ms.max(from_ms + SHORTEST);
        Frame::across(from_ms, to_ms, (LEFT, WIDTH - RIGHT), top, HEIGHT)
    }

    /// `from..to` over the pixels `range`, `height` tall, as given (the timeline's view).
    pub fn across(from_ms: i64, to_ms: i64, range: (f64, f64), top: f64, height: f64) -> Frame {
        Frame {
            x: TimeScale::new((from_ms, to_ms), range, offset_secs()),
            y: LinearScale::new((0.0, top.max(0.0)), (height - BOTTOM, TOP)).nice(4),
            height,
        }
    }

    /// Where the plot ends at the bottom: the value 0, and the time axis.
    pub fn bottom(&self) -> f64 {
        self.height - BOTTOM
    }
}

/// The reader's zone, in seconds east of UTC.
pub fn offset_secs() -> i32 {
    (-js_sys::Date::new_0().get_timezone_offset() * 60.0) as i32
}

pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// A moment as the tables and read-outs say it: "29 Nov 14:05", on the reader's clock.
pub fn moment(ms: i64) -> String {
    moment_label(ms, offset_secs())
}
