//! The one writer connection, shared by group commit. Writes take the connection in turn
//! (a fair mutex: first come, first served); each runs in a savepoint of the group's
//! transaction, so a request that fails or is dropped takes back only its own changes
//! (`ROLLBACK TO`). A write that finishes while others wait leaves its changes in the group
//! (its savepoint is released by the next write, in the same round trip to SQLite's thread
//! as that write's own savepoint) and waits for the group's one `COMMIT` (one fsync for all
//! of them); it is answered only once that commit is on disk, and a failed commit fails
//! every member. The write that finds nobody waiting after it commits the group, as does
//! one that finds the group at its bound. The committer task commits a group only when the
//! writes it was handed on to all gave up, and rolls back the savepoint of a write dropped
//! with nobody after it.
//!
//! How long the queue would take to drain is estimated from its length and a moving average
//! of a write's turn (from one taking of the connection to the next while writes queue: its
//! work, its share of commits, and the handing on), so new writes can be refused at once
//! instead of waiting (load shedding).

use super::measures::average;
use sqlx::{Executor, SqliteConnection};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Mutex, Notify, OwnedMutexGuard};

/// A group commits once it has this many members, even with writes still waiting...
const GROUP_MEMBERS: usize = 256;
/// ...or once its first member started this long ago: a member's answer never waits on an
/// endless queue behind it.
const GROUP_AGE: Duration = Duration::from_millis(25);

/// What every member of a group learns: whether the group's commit succeeded.
type Outcome = Option<Result<(), String>>;

/// The writer connection and its group; cheap to clone.
#[derive(Clone)]
pub struct Writer {
    shared: Arc<Shared>,
}

struct Shared {
    state: Arc<Mutex<State>>,
    /// Writes waiting for the connection.
    waiting: AtomicUsize,
    /// Wakes the committer: a group waits for its commit, or a member left its savepoint.
    wake: Arc<Notify>,
    /// Moving averages, in microseconds: a write's turn while writes queue, and its hold on
    /// the connection (what a turn is taken to be before any queue formed).
    turn_us: AtomicU64,
    hold_us: AtomicU64,
    /// Groups committed.
    commits: AtomicU64,
}

struct State {
    /// `None` once closed.
    conn: Option<SqliteConnection>,
    group: Option<Group>,
    /// The savepoint the connection's last holder left open, if any.
    left: LeftOpen,
    /// When the connection was last taken.
    taken_at: Option<Instant>,
}

/// What the connection's last holder left of its savepoint, for whoever takes it next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LeftOpen {
    /// Nothing: released into the group, or rolled back.
    Nothing,
    /// A member finished with others waiting: its savepoint is released into the group
    /// first.
    ToRelease,
    /// A member was dropped without committing: its savepoint is rolled back first.
    ToRollBack,
}

/// The transaction that members join, each in a savepoint released into it.
struct Group {
    opened: Instant,
    /// Members whose savepoint was released into the group.
    members: usize,
    outcome: watch::Sender<Outcome>,
}

/// A write in progress: the connection, inside its savepoint.
pub struct Member {
    shared: Arc<Shared>,
    state: Option<OwnedMutexGuard<State>>,
    since: Instant,
}

/// A write that asked for the connection, counted as waiting until [`Writer::begin`] takes
/// it. A write given up before that stops counting and wakes the committer: the group it
/// would have joined may have nobody left to commit it.
pub struct Queued {
    shared: Arc<Shared>,
    asked: Instant,
    taken: bool,
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.shared.waiting.fetch_sub(1, Ordering::SeqCst);
        if !self.taken {
            self.shared.wake.notify_one();
        }
    }
}

fn closed() -> sqlx::Error {
    sqlx::Error::PoolClosed
}

impl Writer {
    /// Takes `conn` as the writer; the committer task runs while the writer exists.
    pub fn new(conn: SqliteConnection) -> Self {
        let wake = Arc::new(Notify::new());
        let shared = Arc::new(Shared {
            state: Arc::new(Mutex::new(State {
                conn: Some(conn),
                group: None,
                left: LeftOpen::Nothing,
                taken_at: None,
            })),
            waiting: AtomicUsize::new(0),
            wake: wake.clone(),
            turn_us: AtomicU64::new(0),
            hold_us: AtomicU64::new(0),
            commits: AtomicU64::new(0),
        });
        tokio::spawn(committer(Arc::downgrade(&shared), wake));
        Self { shared }
    }

    /// A write asks for the connection now; [`Writer::begin`] gives it.
    pub fn queued(&self) -> Queued {
        self.shared.waiting.fetch_add(1, Ordering::SeqCst);
        Queued {
            shared: self.shared.clone(),
            asked: Instant::now(),
            taken: false,
        }
    }

    /// Writes waiting for the connection now.
    pub fn waiting(&self) -> usize {
        self.shared.waiting.load(Ordering::SeqCst)
    }

    /// Groups committed so far.
    pub fn commits(&self) -> u64 {
        self.shared.commits.load(Ordering::SeqCst)
    }

    /// How long the writes now waiting would take to be committed, by the moving averages.
    pub fn backlog(&self) -> Duration {
        let waiting = self.shared.waiting.load(Ordering::SeqCst) as u64;
        if waiting == 0 {
            return Duration::ZERO;
        }
        let turn = self.shared.turn_us.load(Ordering::Relaxed);
        let hold = self.shared.hold_us.load(Ordering::Relaxed);
        Duration::from_micros(waiting * turn.max(hold))
    }

    /// Takes the connection for `queued` (after the writes that asked before), opens the
    /// group's transaction unless one is open, and a savepoint for this write. The wait since
    /// it asked is what `waited` is told.
    pub async fn begin(
        &self,
        mut queued: Queued,
        waited: impl FnOnce(Duration),
    ) -> Result<Member, sqlx::Error> {
        let asked = queued.asked;
        let mut state = self.shared.state.clone().lock_owned().await;
        queued.taken = true;
        drop(queued);
        let since = Instant::now();
        waited(since - asked);
        // Asked before the last taking: this write queued through that whole turn.
        if let Some(previous) = state.taken_at.replace(since) {
            if asked < previous {
                average(&self.shared.turn_us, since - previous);
            }
        }
        state.tidy(&self.shared).await;
        let saved = if state.group.is_none() {
            state.open().await
        } else if std::mem::replace(&mut state.left, LeftOpen::Nothing) == LeftOpen::ToRelease {
            let sql = "RELEASE member; SAVEPOINT member";
            state.conn()?.execute(sql).await.map(drop)
        } else {
            state.conn()?.execute("SAVEPOINT member").await.map(drop)
        };
        if let Err(e) = saved {
            // Nothing of this write was done; the group's earlier members still commit (or,
            // should the transaction be gone, learn that their commit failed).
            state.settle(&self.shared).await;
            self.shared.record_hold(since.elapsed());
            return Err(e);
        }
        Ok(Member {
            shared: self.shared.clone(),
            state: Some(state),
            since,
        })
    }

    /// Commits the open group (rolling back a savepoint left open) and closes the
    /// connection, after the writes in flight; later writes are refused.
    pub async fn close(&self) {
        let mut state = self.shared.state.clone().lock_owned().await;
        state.settle(&self.shared).await;
        if let Some(conn) = state.conn.take() {
            let _ = sqlx::Connection::close(conn).await;
        }
        self.shared.wake.notify_one();
    }
}

impl Shared {
    fn record_hold(&self, took: Duration) {
        average(&self.hold_us, took);
        metrics::histogram!("buildd_db_write_hold_seconds").record(took);
    }
}

impl State {
    fn conn(&mut self) -> Result<&mut SqliteConnection, sqlx::Error> {
        self.conn.as_mut().ok_or_else(closed)
    }

    /// Opens a group with the first member's savepoint in it (one round trip to SQLite's
    /// thread: each costs a thread switch, and a write makes several).
    async fn open(&mut self) -> Result<(), sqlx::Error> {
        let conn = self.conn()?;
        if let Err(e) = conn.execute("BEGIN IMMEDIATE; SAVEPOINT member").await {
            // Nothing may stay open outside a group.
            let _ = conn.execute("ROLLBACK").await;
            return Err(e);
        }
        self.group = Some(Group {
            opened: Instant::now(),
            members: 0,
            outcome: watch::Sender::new(None),
        });
        Ok(())
    }

    /// Rolls back the savepoint of a member dropped without committing.
    async fn tidy(&mut self, shared: &Shared) {
        if self.left != LeftOpen::ToRollBack {
            return;
        }
        self.left = LeftOpen::Nothing;
        let Ok(conn) = self.conn() else { return };
        if let Err(e) = conn.execute("ROLLBACK TO member; RELEASE member").await {
            // The savepoint is gone with the whole transaction (SQLite rolls back on an I/O
            // error or a full disk): the group's members fail with it.
            self.fail(&e.to_string(), shared).await;
        }
    }

    /// With no member holding a savepoint: commits the group's members, or ends a group
    /// that has none.
    async fn settle(&mut self, shared: &Shared) {
        self.tidy(shared).await;
        match &self.group {
            Some(g) if g.members > 0 => {
                let sql = if self.left == LeftOpen::ToRelease {
                    "RELEASE member; COMMIT"
                } else {
                    "COMMIT"
                };
                let _ = self.commit(sql, shared).await;
            }
            Some(_) => {
                if let Ok(conn) = self.conn() {
                    let _ = conn.execute("ROLLBACK").await;
                }
                self.group = None;
            }
            None => {}
        }
    }

    /// Commits the group with `sql` (`COMMIT`, or the last member's `RELEASE` and the
    /// `COMMIT` in one) and tells its members.
    async fn commit(&mut self, sql: &str, shared: &Shared) -> Result<(), sqlx::Error> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        self.left = LeftOpen::Nothing;
        let committed = match self.conn() {
            Ok(conn) => {
                let started = Instant::now();
                let done = conn.execute(sql).await.map(drop);
                // Mostly the disk's sync: what every write of the group waits for.
                metrics::histogram!("buildd_db_commit_seconds").record(started.elapsed());
                if done.is_err() {
                    let _ = conn.execute("ROLLBACK").await;
                }
                done
            }
            Err(e) => Err(e),
        };
        if committed.is_ok() {
            shared.commits.fetch_add(1, Ordering::SeqCst);
            metrics::counter!("buildd_db_commits_total").increment(1);
            metrics::counter!("buildd_db_committed_writes_total").increment(group.members as u64);
        }
        group.outcome.send_replace(Some(
            committed.as_ref().map(drop).map_err(|e| e.to_string()),
        ));
        committed
    }

    /// Fails the group: nothing of it was committed.
    async fn fail(&mut self, why: &str, _shared: &Shared) {
        if let Some(group) = self.group.take() {
            group.outcome.send_replace(Some(Err(why.to_string())));
        }
        self.left = LeftOpen::Nothing;
        if let Ok(conn) = self.conn() {
            let _ = conn.execute("ROLLBACK").await;
        }
    }
}

impl Member {
    pub fn conn_mut(&mut self) -> &mut SqliteConnection {
        self.state
            .as_mut()
            .and_then(|s| s.conn.as_mut())
            .expect("a member holds the open connection")
    }

    /// Releases the savepoint into the group and returns once the group is committed. Runs
    /// to the end even if the caller stops waiting, so a write is never left half done.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        tokio::spawn(async move { self.release().await?.wait().await })
            .await
            .map_err(|e| sqlx::Error::Protocol(format!("the commit did not finish: {e}")))?
    }

    /// Releases the savepoint into the group, then commits the group now (nothing waits, or
    /// the group is full) or hands the connection on, leaving the savepoint for the next
    /// write to release. What is left is to wait for the group's commit ([`Durable::wait`]),
    /// without the connection.
    pub async fn release(mut self) -> Result<Durable, sqlx::Error> {
        let mut state = self.state.take().expect("a member holds the connection");
        let (shared, since) = (self.shared.clone(), self.since);
        let group = state
            .group
            .as_mut()
            .expect("a member's savepoint is in a group");
        let full = group.members + 1 >= GROUP_MEMBERS || group.opened.elapsed() >= GROUP_AGE;
        if full || shared.waiting.load(Ordering::SeqCst) == 0 {
            // A failed RELEASE (the transaction is gone) fails the group as a failed COMMIT
            // does.
            group.members += 1;
            let committed = state.commit("RELEASE member; COMMIT", &shared).await;
            shared.record_hold(since.elapsed());
            return committed.map(|()| Durable(None));
        }
        state.left = LeftOpen::ToRelease;
        let group = state
            .group
            .as_mut()
            .expect("a member's savepoint is in a group");
        group.members += 1;
        let outcome = group.outcome.subscribe();
        shared.record_hold(since.elapsed());
        // The next write joins the group; the last to join commits it (or, should the
        // writes that waited all give up, the committer does).
        drop(state);
        Ok(Durable(Some(outcome)))
    }
}

/// A member released into its group: durable once the group commits.
pub struct Durable(Option<watch::Receiver<Outcome>>);

impl Durable {
    /// Returns once the group is committed (at once if it already was).
    pub async fn wait(self) -> Result<(), sqlx::Error> {
        let Some(mut outcome) = self.0 else {
            return Ok(());
        };
        let outcome = outcome
            .wait_for(Option::is_some)
            .await
            .map(|o| o.clone())
            .map_err(|_| sqlx::Error::Protocol("the group ended without a commit".into()))?;
        match outcome {
            Some(Ok(())) => Ok(()),
            Some(Err(why)) => Err(sqlx::Error::Protocol(format!(
                "the group commit failed: {why}"
            ))),
            None => unreachable!("waited for an outcome"),
        }
    }
}

impl Drop for Member {
    /// A write dropped without committing (refused, failed, or its request given up): its
    /// savepoint is rolled back by whoever takes the connection next, and the committer is
    /// woken so that happens even if nobody else writes.
    fn drop(&mut self) {
        if let Some(mut state) = self.state.take() {
            state.left = LeftOpen::ToRollBack;
            drop(state);
            self.shared.record_hold(self.since.elapsed());
            self.shared.wake.notify_one();
        }
    }
}

/// The task that finishes what no write is left to finish. The write that finds nobody
/// waiting after it normally commits the group; when every write the group was handed on to
/// gives up before taking the connection, this task commits the group instead, and it rolls
/// back the savepoint of a write dropped with nobody after it. While a write still waits it
/// does nothing: that write does both. It stops once the writer is dropped or closed.
async fn committer(shared: Weak<Shared>, wake: Arc<Notify>) {
    loop {
        wake.notified().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let mut state = shared.state.clone().lock_owned().await;
        if state.conn.is_none() {
            return;
        }
        // A write still waits: it joins the group, and the last to join commits it.
        if shared.waiting.load(Ordering::SeqCst) > 0 {
            continue;
        }
        state.taken_at = Some(Instant::now());
        state.settle(&shared).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::{ConnectOptions, Row};

    async fn connect(path: &std::path::Path) -> SqliteConnection {
        sqlx::sqlite::SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
            .connect()
            .await
            .unwrap()
    }

    /// A write that finished while another waited leaves its savepoint for that one to
    /// release; when that one gives up before taking the connection, the committer releases
    /// and commits it, and the writer goes on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_left_for_a_waiter_that_gave_up_is_still_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.db");
        let mut setup = connect(&path).await;
        setup.execute("CREATE TABLE t (v TEXT)").await.unwrap();
        let writer = Writer::new(connect(&path).await);
        let mut first = writer.begin(writer.queued(), drop).await.unwrap();
        first
            .conn_mut()
            .execute("INSERT INTO t VALUES ('first')")
            .await
            .unwrap();
        let waiter = writer.queued();
        let durable = first.release().await.unwrap();
        assert!(
            durable.0.is_some(),
            "with a write waiting, the first was committed at once"
        );
        drop(waiter);
        durable.wait().await.unwrap();
        let mut next = writer.begin(writer.queued(), drop).await.unwrap();
        next.conn_mut()
            .execute("INSERT INTO t VALUES ('next')")
            .await
            .unwrap();
        next.commit().await.unwrap();
        let rows: Vec<String> = sqlx::query("SELECT v FROM t ORDER BY rowid")
            .fetch_all(&mut setup)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(rows, ["first", "next"]);
        assert_eq!(writer.commits(), 2);
    }
}
