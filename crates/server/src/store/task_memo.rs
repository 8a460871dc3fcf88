//! Each mission's task list as last read, tagged with the `task_changes` sequence number of
//! the snapshot it was read in. A mission page rebuilt later reads again only the tasks
//! logged as changed since, so a change to one of 2,000 tasks costs one task's read.

use super::mission_tasks::read_tasks;
use super::team_changes;
use crate::db::sql;
use crate::db::{Db, Tx};
use crate::error::ApiResult;
use buildd_core::MissionTask;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// At most this many missions' task lists are kept.
const CAPACITY: usize = 64;

/// Log entries kept when pruning; a list kept from before them is read again in full.
const LOG_KEPT: i64 = 50_000;
/// Log entries deleted in one transaction when the log is pruned.
const PRUNED_AT_ONCE: i64 = 2_000;

/// A task as kept: parsed for the rules, serialized for the answer.
pub struct KeptTask {
    /// The tie-break of the list's order (newest first by `createdAt`, then rowid).
    rowid: i64,
    pub task: MissionTask,
    json: Box<RawValue>,
}

/// A kept task in an answer: its JSON, written as it was serialized when read.
#[derive(Clone)]
pub struct TaskJson(pub Arc<KeptTask>);

impl Serialize for TaskJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.json.serialize(s)
    }
}

/// A mission's tasks, newest first.
type Tasks = Arc<Vec<TaskJson>>;

#[derive(Clone, Default)]
pub struct TaskMemo {
    entries: Arc<Mutex<HashMap<String, (i64, Tasks)>>>,
}

impl TaskMemo {
    fn get(&self, mission: &str) -> Option<(i64, Tasks)> {
        self.entries
            .lock()
            .expect("task memo lock")
            .get(mission)
            .cloned()
    }

    /// Keeps `tasks` read at `seq`, unless a newer read is already kept.
    fn keep(&self, mission: &str, seq: i64, tasks: Tasks) {
        let mut entries = self.entries.lock().expect("task memo lock");
        if entries.get(mission).is_some_and(|(s, _)| *s > seq) {
            return;
        }
        if entries.len() >= CAPACITY && !entries.contains_key(mission) {
            entries.clear();
        }
        entries.insert(mission.to_string(), (seq, tasks));
    }

    /// The tasks of `mission_id` (already checked to be `team_id`'s) as the snapshot of the
    /// read-only `tx` has them, newest first. Never call it in a write transaction: a rolled
    /// back write hands its sequence numbers out again, and a list kept at one would lie.
    pub async fn mission_tasks(
        &self,
        tx: &mut Tx,
        team_id: &str,
        mission_id: &str,
    ) -> ApiResult<Tasks> {
        if tx.is_postgres() {
            // Postgres logs changes without a commit-ordered sequence yet: read afresh.
            return Ok(Arc::new(read(tx, team_id, mission_id, None).await?));
        }
        let (seq, floor): (i64, i64) = sql::query_as(
            "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'task_changes'), 0), \
                    (SELECT seq FROM task_changes_floor WHERE id = 1)",
        )
        .fetch_one(tx)
        .await?;
        let tasks = match self.get(mission_id) {
            Some((kept, tasks)) if kept == seq => tasks,
            Some((kept, tasks)) if kept >= floor && kept < seq => {
                let changed: Vec<(String,)> = sql::query_as(
                    "SELECT DISTINCT task_id FROM task_changes WHERE mission_id = ? AND seq > ?",
                )
                .bind(mission_id)
                .bind(kept)
                .fetch_all(tx)
                .await?;
                let changed: HashSet<String> = changed.into_iter().map(|(id,)| id).collect();
                let tasks = if changed.is_empty() {
                    tasks
                } else {
                    Arc::new(patch(
                        &tasks,
                        &changed,
                        read(tx, team_id, mission_id, Some(&changed)).await?,
                    ))
                };
                self.keep(mission_id, seq, tasks.clone());
                tasks
            }
            _ => {
                let tasks = Arc::new(read(tx, team_id, mission_id, None).await?);
                self.keep(mission_id, seq, tasks.clone());
                tasks
            }
        };
        Ok(tasks)
    }
}

/// `kept` with the `changed` tasks replaced by what `read` found of them (gone when absent),
/// sorted again when one is new or its place in the order moved.
fn patch(kept: &[TaskJson], changed: &HashSet<String>, read: Vec<TaskJson>) -> Vec<TaskJson> {
    let mut fresh: HashMap<String, TaskJson> =
        read.into_iter().map(|t| (t.0.task.id.clone(), t)).collect();
    let key = |t: &TaskJson| (t.0.task.created_at.clone(), t.0.rowid);
    let mut moved = false;
    let mut out: Vec<TaskJson> = kept
        .iter()
        .filter_map(|t| {
            if !changed.contains(&t.0.task.id) {
                return Some(t.clone());
            }
            let now = fresh.remove(&t.0.task.id)?;
            moved |= key(&now) != key(t);
            Some(now)
        })
        .collect();
    if moved || !fresh.is_empty() {
        out.extend(fresh.into_values());
        out.sort_by_cached_key(|t| std::cmp::Reverse(key(t)));
    }
    out
}

/// [`read_tasks`], each task serialized once for the answers to come.
async fn read(
    tx: &mut Tx,
    team_id: &str,
    mission_id: &str,
    ids: Option<&HashSet<String>>,
) -> ApiResult<Vec<TaskJson>> {
    read_tasks(tx, team_id, mission_id, ids)
        .await?
        .into_iter()
        .map(|(rowid, task)| {
            let json = serde_json::value::to_raw_value(&task)?;
            Ok(TaskJson(Arc::new(KeptTask { rowid, task, json })))
        })
        .collect()
}

/// Drops all but the newest [`LOG_KEPT`] log entries.
pub async fn prune_log(db: &Db) -> ApiResult<()> {
    prune_log_keeping(db, LOG_KEPT).await
}

/// Drops all but the newest `kept` log entries, once at least as many more have gathered
/// (on Postgres, of the change log that replaces this one).
pub async fn prune_log_keeping(db: &Db, kept: i64) -> ApiResult<()> {
    if db.is_postgres() {
        return team_changes::prune(db, kept, PRUNED_AT_ONCE).await;
    }
    let (logged,): (i64,) = {
        let mut tx = db.read().await?;
        sql::query_as(
            "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'task_changes'), 0) \
                    - (SELECT seq FROM task_changes_floor WHERE id = 1)",
        )
        .fetch_one(&mut tx)
        .await?
    };
    if logged <= kept.saturating_mul(2) {
        return Ok(());
    }
    // The floor first: what lies below it counts as gone, deleted or not yet.
    let mut tx = db.write().await?;
    sql::query(
        "UPDATE task_changes_floor SET seq = MAX(seq, \
           COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'task_changes'), 0) - ?) \
         WHERE id = 1",
    )
    .bind(kept)
    .execute(&mut tx)
    .await?;
    tx.commit().await?;
    // Then a slice at a time.
    team_changes::delete_in_slices(
        db,
        "DELETE FROM task_changes WHERE seq <= MIN((SELECT seq FROM task_changes_floor), \
           (SELECT MIN(seq) FROM task_changes) + ? - 1)",
        &[PRUNED_AT_ONCE],
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log many slices long is pruned down to the newest entries it keeps, all of them.
    #[tokio::test]
    async fn pruning_in_slices_keeps_exactly_the_newest_entries() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let logged = 3 * PRUNED_AT_ONCE + 7;
        let mut tx = db.write().await.unwrap();
        sql::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) \
             INSERT INTO task_changes (mission_id, task_id) SELECT 'm', 't' || i FROM n",
        )
        .bind(logged)
        .execute(&mut tx)
        .await
        .unwrap();
        tx.commit().await.unwrap();

        prune_log_keeping(&db, 10).await.unwrap();
        let mut tx = db.read().await.unwrap();
        let (left, oldest, floor): (i64, i64, i64) = sql::query_as(
            "SELECT COUNT(*), MIN(seq), (SELECT seq FROM task_changes_floor) FROM task_changes",
        )
        .fetch_one(&mut tx)
        .await
        .unwrap();
        assert_eq!((left, oldest, floor), (10, logged - 9, logged - 10));
    }
}
