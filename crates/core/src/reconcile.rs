//! Fresh PR state on a hosted Buildd: its `POST /api/missions/{id}/reconcile` re-reads a
//! mission's PRs from GitHub, so a PR merged while a webhook was missed does not stay
//! "open". The dashboard asks when a mission page opens, at most once a minute a mission:
//! it is cheap for Buildd, but GitHub's rate limit is the team's.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The least time between two asks for one mission, in milliseconds.
pub const RECONCILE_EVERY_MS: f64 = 60_000.0;

/// Whether a mission last reconciled at `last` (ms since the epoch, if ever) may be asked
/// again at `now`.
pub fn reconcile_due(last: Option<f64>, now: f64) -> bool {
    last.is_none_or(|last| now - last >= RECONCILE_EVERY_MS || now < last)
}

/// Buildd's answer: how many PRs it checked and corrected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reconciled {
    pub checked: u64,
    pub corrected: u64,
    #[serde(default)]
    pub fixes: Vec<Value>,
    #[serde(default)]
    pub unverified: Vec<Value>,
    #[serde(default)]
    pub dry_run: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mission_is_asked_once_a_minute_at_most() {
        assert!(reconcile_due(None, 0.0));
        assert!(!reconcile_due(Some(1_000.0), 1_000.0));
        assert!(!reconcile_due(Some(1_000.0), 60_999.0));
        assert!(reconcile_due(Some(1_000.0), 61_000.0));
        // A clock set back does not silence it for good.
        assert!(reconcile_due(Some(90_000.0), 1_000.0));
    }
}
