//! What the other servers on the database tell this one: that accounts were deleted or
//! their keys changed (channel `buildd_keys`, sent by a trigger on `accounts`, so a row
//! deleted by hand counts too). Counted, so each server's key cache starts over when the
//! count moves; a session lost and opened again counts as well, since notices sent
//! meanwhile were missed.

use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::task::AbortHandle;

/// The channel the trigger notifies.
const KEYS: &str = "buildd_keys";

/// How long a lost session waits before it is opened again.
const AGAIN_AFTER: Duration = Duration::from_secs(1);

/// The listening session, its task stopped when the last handle goes.
pub struct KeyNotices {
    count: Arc<AtomicU64>,
    task: AbortHandle,
}

impl KeyNotices {
    /// Listens on a session of its own (outside the pool, which it would otherwise hold a
    /// connection of for good).
    pub fn listen(options: PgConnectOptions) -> Self {
        let count = Arc::new(AtomicU64::new(0));
        let task = tokio::spawn(listen(options, count.clone())).abort_handle();
        Self { count, task }
    }

    /// Notices heard so far, sessions opened included.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::SeqCst)
    }
}

impl Drop for KeyNotices {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn listen(options: PgConnectOptions, count: Arc<AtomicU64>) {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_lazy_with(options);
    loop {
        if let Ok(mut listener) = PgListener::connect_with(&pool).await {
            if listener.listen(KEYS).await.is_ok() {
                // Whatever was sent before this session listened was missed.
                count.fetch_add(1, Ordering::SeqCst);
                // `Ok(None)`: the session was lost (and opened again), so notices were missed.
                while listener.try_recv().await.is_ok() {
                    count.fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        count.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(AGAIN_AFTER).await;
    }
}
