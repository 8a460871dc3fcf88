//! Writes on Postgres, counted so a queue can be refused before it stalls, as SQLite's
//! writer queue is. Writes take at most three quarters of the pool's connections, so reads
//! are still answered while writes queue; how many wait for one now, and a moving average
//! of how long a write holds one (from its turn to its `COMMIT` or rollback), give the wait
//! ahead of a new write: the writes waiting times a hold, over the writes' connections.

use crate::db::measures::average;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub struct Writes {
    /// The writes' share of the pool: one permit a connection.
    turns: Arc<Semaphore>,
    connections: u32,
    waiting: AtomicUsize,
    hold_us: AtomicU64,
}

impl Writes {
    /// The writes of a pool of `pool` connections.
    pub fn new(pool: u32) -> Arc<Self> {
        let connections = (pool * 3 / 4).max(1);
        Arc::new(Self {
            turns: Arc::new(Semaphore::new(connections as usize)),
            connections,
            waiting: AtomicUsize::new(0),
            hold_us: AtomicU64::new(0),
        })
    }

    /// A write asks for its turn now; dropping the ticket says it has begun (or gave up).
    pub fn queued(self: &Arc<Self>) -> Waiting {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        Waiting(self.clone())
    }

    /// Waits for a turn, which the write holds until the hold is dropped.
    pub async fn turn(self: &Arc<Self>) -> Hold {
        let permit = self
            .turns
            .clone()
            .acquire_owned()
            .await
            .expect("the writes' turns are never closed");
        Hold {
            writes: self.clone(),
            since: Instant::now(),
            _permit: permit,
        }
    }

    /// Writes waiting for a connection now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// How long the writes now waiting would take to get their connections.
    pub fn backlog(&self) -> Duration {
        let waiting = self.waiting() as u64;
        let hold = self.hold_us.load(Ordering::Relaxed);
        Duration::from_micros(waiting * hold / u64::from(self.connections))
    }
}

pub struct Waiting(Arc<Writes>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::SeqCst);
    }
}

pub struct Hold {
    writes: Arc<Writes>,
    since: Instant,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let took = self.since.elapsed();
        average(&self.writes.hold_us, took);
        metrics::histogram!("buildd_db_write_hold_seconds").record(took);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_wait_ahead_is_the_writes_waiting_times_a_hold_over_their_connections() {
        let writes = Writes::new(4);
        assert_eq!(
            writes.connections, 3,
            "a quarter of the pool is left to reads"
        );
        assert_eq!(writes.backlog(), Duration::ZERO);
        // A first hold is taken as it is: 8 ms.
        let hold = writes.turn().await;
        std::thread::sleep(Duration::from_millis(8));
        drop(hold);
        let held = writes.hold_us.load(Ordering::Relaxed);
        assert!(held >= 8_000, "{held}");
        let waiting: Vec<_> = (0..6).map(|_| writes.queued()).collect();
        assert_eq!(writes.waiting(), 6);
        assert_eq!(writes.backlog(), Duration::from_micros(6 * held / 3));
        drop(waiting);
        assert_eq!(writes.waiting(), 0);
        assert_eq!(writes.backlog(), Duration::ZERO);
        // Three turns at once, and the fourth waits for one of them to end.
        let turns = [
            writes.turn().await,
            writes.turn().await,
            writes.turn().await,
        ];
        let fourth = tokio::spawn({
            let writes = writes.clone();
            async move { writes.turn().await.since }
        });
        tokio::task::yield_now().await;
        assert!(!fourth.is_finished(), "a fourth write took a turn");
        drop(turns);
        fourth.await.unwrap();
    }
}
