//! Settings that tune the server's behaviour, read by every layer.

use buildd_core::checkin::{DEFAULT_GRACE_SECS, DEFAULT_INTERVAL_SECS};
use chrono::Duration;

/// How often check-ins run, and how long after any organizer run a check-in stays quiet.
#[derive(Clone, Copy, Debug)]
pub struct CheckinConfig {
    pub interval: Duration,
    pub grace: Duration,
}

impl Default for CheckinConfig {
    fn default() -> Self {
        Self {
            interval: Duration::seconds(DEFAULT_INTERVAL_SECS),
            grace: Duration::seconds(DEFAULT_GRACE_SECS),
        }
    }
}
