//! How often the dashboard reads what it shows while the page is open: every few seconds
//! while things move, less often the longer nothing has changed, so an idle page asks little
//! and a busy one stays current. A change, the tab coming back or a person's action brings
//! the pace back at once.

use std::time::Duration;

/// The timer's step: reads happen on its ticks.
pub const TICK: Duration = Duration::from_secs(5);

/// The wait before the next read after `unchanged` reads in a row that changed nothing:
/// 5 s for the first three, then 10 s, 20 s, and 30 s at most.
pub fn next_read_after(unchanged: u32) -> Duration {
    match unchanged {
        0..=2 => TICK,
        3..=5 => TICK * 2,
        6..=8 => TICK * 4,
        _ => TICK * 6,
    }
}

/// The wait before opening the change stream again after `failures` tries in a row that
/// never opened it: 1 s, doubling to 30 s. Polling carries on meanwhile.
pub fn reconnect_after(failures: u32) -> Duration {
    Duration::from_secs(1u64 << failures.min(5)).min(TICK * 6)
}

/// One polled read's pace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pace {
    unchanged: u32,
    waited: Duration,
}

impl Pace {
    /// A tick passed; whether a read is due now (and, if so, it is counted as made).
    pub fn tick(&mut self) -> bool {
        self.waited += TICK;
        if self.waited < next_read_after(self.unchanged) {
            return false;
        }
        self.waited = Duration::ZERO;
        self.unchanged = self.unchanged.saturating_add(1);
        true
    }

    /// What the read shows changed, or a person acted: back to the quick pace.
    pub fn changed(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_that_fails_to_open_is_tried_less_often_down_to_twice_a_minute() {
        let waits: Vec<u64> = (0..8).map(|f| reconnect_after(f).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30]);
    }

    /// Reads in `seconds` of nothing changing, from a fresh pace.
    fn reads_in(seconds: u64) -> usize {
        let mut pace = Pace::default();
        (0..seconds / TICK.as_secs())
            .filter(|_| pace.tick())
            .count()
    }

    #[test]
    fn an_idle_read_slows_down_to_twice_a_minute() {
        assert_eq!(next_read_after(0), Duration::from_secs(5));
        assert_eq!(next_read_after(100), Duration::from_secs(30));
        // The first minute after loading: three at 5 s, three at 10 s, then 20 s.
        assert_eq!(reads_in(60), 6);
        // Once settled: two a minute.
        assert_eq!(reads_in(600) - reads_in(540), 2);
    }

    #[test]
    fn a_change_brings_the_quick_pace_back() {
        let mut pace = Pace::default();
        for _ in 0..40 {
            pace.tick();
        }
        pace.changed();
        assert!(pace.tick(), "the next tick reads again");
    }
}
