//! What both backends' writes measure: how long a write waited for its turn, and moving
//! averages of how long writes take, from which a queue's wait is estimated.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Records how long a write waited for the writer (SQLite) or a connection (Postgres).
pub(super) fn record_wait(waited: Duration) {
    metrics::histogram!("buildd_db_write_wait_seconds").record(waited);
}

/// Moves the moving average in `slot` an eighth of the way towards `took`.
pub(super) fn average(slot: &AtomicU64, took: Duration) {
    let sample = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
    let _ = slot.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
        Some(if old == 0 {
            sample
        } else {
            old - old / 8 + sample / 8
        })
    });
}
