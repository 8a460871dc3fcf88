//! What the change stream watches: every team's count of writes, read a few times a second
//! by one task while any stream is open (however many pages are open, it is one small read),
//! and handed to the streams. The task stops with the last stream and starts with the next.
//! Closing the feed (the server shutting down) ends every stream, so shutdown never waits on
//! an open page.

use crate::db::Db;
use crate::store::team_changes;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How often the counts are read: a change reaches an open page within a second.
const READ_EVERY: Duration = Duration::from_millis(250);

/// Every team's count of writes, by team id.
pub type Counts = Arc<HashMap<String, i64>>;

#[derive(Clone)]
pub struct ChangeFeed {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    counts: watch::Sender<Counts>,
    closed: watch::Sender<bool>,
    /// Whether the reading task runs; taken with every subscription, so a stream opened as
    /// the task stops still gets one.
    reading: Mutex<bool>,
}

/// One stream's view of the feed.
pub struct Subscription {
    pub counts: watch::Receiver<Counts>,
    pub closed: watch::Receiver<bool>,
}

impl ChangeFeed {
    pub fn new(db: Db) -> Self {
        Self {
            inner: Arc::new(Inner {
                db,
                counts: watch::Sender::new(Arc::default()),
                closed: watch::Sender::new(false),
                reading: Mutex::new(false),
            }),
        }
    }

    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    /// Watches the counts, starting the reading task if none runs.
    pub fn subscribe(&self) -> Subscription {
        let mut reading = self.inner.reading.lock().expect("not poisoned");
        let counts = self.inner.counts.subscribe();
        if !*reading {
            *reading = true;
            tokio::spawn(read_counts(self.inner.clone()));
        }
        Subscription {
            counts,
            closed: self.inner.closed.subscribe(),
        }
    }

    /// Ends every stream, now and from now on.
    pub fn close(&self) {
        self.inner.closed.send_replace(true);
    }
}

async fn read_counts(inner: Arc<Inner>) {
    let mut tick = tokio::time::interval(READ_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        {
            let mut reading = inner.reading.lock().expect("not poisoned");
            if inner.counts.receiver_count() == 0 || *inner.closed.borrow() {
                *reading = false;
                return;
            }
        }
        match read_once(&inner.db).await {
            Ok(counts) => {
                inner.counts.send_if_modified(|kept| {
                    let moved = **kept != counts;
                    if moved {
                        *kept = Arc::new(counts);
                    }
                    moved
                });
            }
            Err(e) => tracing::warn!("reading the change counts: {e:?}"),
        }
    }
}

async fn read_once(db: &Db) -> crate::error::ApiResult<HashMap<String, i64>> {
    sequenced(db).await?;
    let mut tx = db.read().await?;
    Ok(team_changes::all(&mut tx).await?.into_iter().collect())
}

/// Team `team_id`'s count of writes now, as a stream opening greets with it.
pub async fn team_count(db: &Db, team_id: &str) -> crate::error::ApiResult<i64> {
    sequenced(db).await?;
    let mut tx = db.read().await?;
    team_changes::of(&mut tx, team_id).await
}

/// On Postgres, where the counts move as the change log is sequenced (by whichever replica
/// reads them), one step of it first.
async fn sequenced(db: &Db) -> crate::error::ApiResult<()> {
    if db.is_postgres() {
        let mut tx = db.write().await?;
        team_changes::sequence(&mut tx).await?;
        tx.commit().await?;
    }
    Ok(())
}
