//! An edit of a mission's active hours, and how a window reads as a sentence.

/// An edit of the active hours in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct HoursDraft {
    pub enabled: bool,
    pub start: u32,
    pub end: u32,
    pub timezone: String,
}

/// An hour of the day as a clock reads it: "09:00".
pub fn hh(h: u32) -> String {
    format!("{h:02}:00")
}

/// "Check-ins run between 09:00 and 18:00 America/New_York; outside these hours they wait."
pub fn describe(start: u32, end: u32, timezone: &str) -> String {
    let overnight = if start > end { " (overnight)" } else { "" };
    format!(
        "Check-ins run between {} and {} {timezone}{overnight}; outside these hours they wait.",
        hh(start),
        hh(end)
    )
}
