//! The claim queue (migration 0019): every pending task with whether its dependencies are
//! settled and its mission lets it start, kept by triggers as tasks, their workers' PRs and
//! missions move. A claim reads the first tasks it may take off a partial index; why there
//! are none is counted over the team's queue only when there are none.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use buildd_core::claims::QueueCounts;

/// The part of the queue a claim draws from: the team's, in one workspace or one task when
/// the claim names them.
pub struct QueueFilter<'a> {
    pub team_id: &'a str,
    pub workspace_id: Option<&'a str>,
    pub task_id: Option<&'a str>,
}

// Every statement here binds ?1 the team, ?2 the workspace, ?3 the task, ?4 the moment and
// ?5 the limit, whichever it uses.

/// Ready, not stopped and not deferred at ?4; the literals let SQLite use the partial
/// indexes.
const CLAIMABLE: &str = "ready = 1 AND stopped = 0 AND (start_at IS NULL OR start_at <= ?4)";

/// The claim order: highest priority first, then oldest.
const CLAIM_ORDER: &str = "ORDER BY priority DESC, created_at";

/// The statement that reads up to ?5 tasks of `f` a claim may take at ?4.
pub fn claimable_sql(f: &QueueFilter<'_>) -> String {
    let scope = scope(f);
    format!("SELECT task_id FROM claim_queue WHERE {scope} AND {CLAIMABLE} {CLAIM_ORDER} LIMIT ?5")
}

/// Which rows of the queue `f` names.
fn scope(f: &QueueFilter<'_>) -> &'static str {
    match (f.task_id, f.workspace_id) {
        (Some(_), Some(_)) => "task_id = ?3 AND team_id = ?1 AND workspace_id = ?2",
        (Some(_), None) => "task_id = ?3 AND team_id = ?1",
        (None, Some(_)) => "team_id = ?1 AND workspace_id = ?2",
        (None, None) => "team_id = ?1",
    }
}

/// `sql` with every parameter bound from `f`.
fn bound<'q, O>(
    sql: &'q str,
    f: &'q QueueFilter<'q>,
    at: &'q str,
    limit: i64,
) -> sql::Query<'q, O> {
    sql::query_as(sql)
        .bind(f.team_id)
        .bind(f.workspace_id)
        .bind(f.task_id)
        .bind(at)
        .bind(limit)
}

/// Up to `limit` tasks of `f` a claim may take at `at`, in claim order.
pub async fn claimable(
    tx: &mut Tx,
    f: &QueueFilter<'_>,
    at: &str,
    limit: i64,
) -> ApiResult<Vec<String>> {
    let sql = claimable_sql(f);
    let rows: Vec<(String,)> = bound(&sql, f, at, limit).fetch_all(tx).await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// Up to `limit` tasks of `f` a claim may take at `at`, in claim order, for a write that
/// takes them: on Postgres each is held (`FOR UPDATE`) until the claim commits, and tasks
/// another claim holds now are passed over (`SKIP LOCKED`), so claims running side by side
/// take different tasks instead of racing for the first. SQLite runs one write at a time.
pub async fn claimable_to_take(
    tx: &mut Tx,
    f: &QueueFilter<'_>,
    at: &str,
    limit: i64,
) -> ApiResult<Vec<String>> {
    let sql = claimable_sql(f);
    let held = format!("{sql} FOR UPDATE SKIP LOCKED");
    let rows: Vec<(String,)> = bound(&sql, f, at, limit)
        .postgres(held)
        .fetch_all(tx)
        .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// The counts of `f`'s queue at `at`.
pub async fn counts(tx: &mut Tx, f: &QueueFilter<'_>, at: &str) -> ApiResult<QueueCounts> {
    let sql = format!(
        "SELECT COUNT(*), \
           COUNT(*) FILTER (WHERE start_at > ?4), \
           COUNT(*) FILTER (WHERE (start_at IS NULL OR start_at <= ?4) AND stopped = 1), \
           COUNT(*) FILTER (WHERE (start_at IS NULL OR start_at <= ?4) AND stopped = 2), \
           COUNT(*) FILTER (WHERE (start_at IS NULL OR start_at <= ?4) AND stopped = 0 AND ready = 0) \
         FROM claim_queue WHERE {}",
        scope(f)
    );
    let (pending, deferred, paused, out_of_budget, blocked) =
        bound(&sql, f, at, 0).fetch_one(tx).await?;
    Ok(QueueCounts {
        pending,
        deferred,
        paused,
        out_of_budget,
        blocked,
    })
}

/// How many of the team's tasks a claim could take at `at`.
pub async fn claimable_count(tx: &mut Tx, team_id: &str, at: &str) -> ApiResult<i64> {
    let filter = QueueFilter {
        team_id,
        workspace_id: None,
        task_id: None,
    };
    let sql = format!(
        "SELECT COUNT(*) FROM claim_queue WHERE {} AND {CLAIMABLE}",
        scope(&filter)
    );
    let (count,) = bound(&sql, &filter, at, 0).fetch_one(tx).await?;
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;
    use crate::store::accounts::ensure_team;
    use crate::store::missions::{self, NewMission};
    use crate::store::tasks::{self, NewTask, Requeue, TaskPatch};
    use crate::store::workers::{self, NewWorker};
    use crate::store::workspaces::{insert as insert_workspace, NewWorkspace};
    use buildd_core::claims::ClaimStop;
    use buildd_core::dependencies::dependency_satisfied;
    use buildd_core::{MissionStatus, TaskStatus};
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

    type Queue = BTreeMap<String, (bool, i64, BTreeSet<String>)>;

    /// The queue as the rules say it should be, computed here from the tables: each pending
    /// task with whether every dependency is a settled task of its team (buildd-core's
    /// rule), what its mission lets it do (1 paused, archived or held; 2 out of budget), and
    /// its dependencies.
    async fn expected(tx: &mut Tx) -> Queue {
        let tasks: Vec<(String, String, String, String, Option<String>)> =
            sql::query_as("SELECT id, team_id, status, depends_on, mission_id FROM tasks")
                .fetch_all(tx)
                .await
                .unwrap();
        let open: HashSet<String> = sql::query_as::<(String,)>(
            "SELECT task_id FROM workers WHERE pr_url IS NOT NULL AND merged_at IS NULL \
             AND COALESCE(pr_lifecycle_status, '') NOT IN ('merged', 'closed')",
        )
        .fetch_all(tx)
        .await
        .unwrap()
        .into_iter()
        .map(|(id,)| id)
        .collect();
        let missions: HashMap<String, (String, bool)> =
            sql::query_as::<(String, String, sql::Flag)>(
                "SELECT id, status, is_held FROM missions",
            )
            .fetch_all(tx)
            .await
            .unwrap()
            .into_iter()
            .map(|(id, status, held)| (id, (status, held.0)))
            .collect();
        let by_id: HashMap<&str, (&str, &str)> = tasks
            .iter()
            .map(|(id, team, status, _, _)| (id.as_str(), (team.as_str(), status.as_str())))
            .collect();
        let mut queue = Queue::new();
        for (id, team, status, depends_on, mission) in &tasks {
            if TaskStatus::parse(status) != TaskStatus::Pending {
                continue;
            }
            let deps: BTreeSet<String> = serde_json::from_str(depends_on).unwrap();
            let ready = deps.iter().all(|d| {
                by_id.get(d.as_str()).is_some_and(|(t, s)| {
                    t == team && dependency_satisfied(&TaskStatus::parse(s), open.contains(d))
                })
            });
            let stopped = mission
                .as_ref()
                .and_then(|m| missions.get(m))
                .map_or(0, |(s, held)| {
                    ClaimStop::of(&MissionStatus::parse(s), *held).code()
                });
            queue.insert(id.clone(), (ready, stopped, deps));
        }
        queue
    }

    /// The queue as the triggers keep it.
    async fn kept(tx: &mut Tx) -> Queue {
        let rows: Vec<(String, bool, i64)> =
            sql::query_as("SELECT task_id, ready, stopped FROM claim_queue")
                .fetch_all(tx)
                .await
                .unwrap();
        let edges: Vec<(String, String)> =
            sql::query_as("SELECT task_id, depends_on FROM claim_queue_deps")
                .fetch_all(tx)
                .await
                .unwrap();
        let mut queue: Queue = rows
            .into_iter()
            .map(|(id, ready, stopped)| (id, (ready, stopped, BTreeSet::new())))
            .collect();
        for (task, dep) in edges {
            queue
                .get_mut(&task)
                .unwrap_or_else(|| panic!("an edge of {task}, which is not queued"))
                .2
                .insert(dep);
        }
        queue
    }

    /// Random writes of every kind that moves a task's place (through the store's own
    /// writes and as plain SQL), some of them dropped instead of committed: after each, the
    /// queue the triggers keep is the one the core rule gives.
    #[tokio::test]
    async fn the_kept_queue_is_always_the_rules_queue() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut rng = StdRng::seed_from_u64(19);
        let mut tx = db.write().await.unwrap();
        let team = ensure_team(&mut tx, "t").await.unwrap();
        let other_team = ensure_team(&mut tx, "other").await.unwrap();
        let workspace = NewWorkspace::new(&team, "w");
        insert_workspace(&mut tx, &workspace).await.unwrap();
        let other_ws = NewWorkspace::new(&other_team, "o");
        insert_workspace(&mut tx, &other_ws).await.unwrap();
        let foreign = NewTask::new(&other_team, &other_ws.id, "another team's");
        tasks::insert(&mut tx, &foreign).await.unwrap();
        let mut mission_ids = Vec::new();
        for m in 0..3 {
            let mission = NewMission::new(&team, format!("m{m}"));
            missions::insert(&mut tx, &mission).await.unwrap();
            mission_ids.push(mission.id);
        }
        tx.commit().await.unwrap();
        // Ids a task may name: the team's tasks, another team's, and ones written later.
        let mut ids: Vec<String> = vec![foreign.id.clone()];
        let ghosts: Vec<String> = (0..6).map(|g| format!("ghost-{g}")).collect();
        let mut pr = 0;
        let mut kinds = [0usize; 14];
        for step in 0..400 {
            let mut tx = db.write().await.unwrap();
            let before = (ids.clone(), mission_ids.clone());
            let pick = |rng: &mut StdRng, ids: &[String]| ids.choose(rng).cloned();
            let kind = rng.gen_range(0..14);
            kinds[kind] += 1;
            let at = format!("2026-01-01T00:00:{:02}.{step:03}Z", step % 60);
            let some_task = pick(&mut rng, &ids[1..]).filter(|_| ids.len() > 1);
            match (kind, some_task) {
                (0..=2, _) | (_, None) => {
                    let id = if rng.gen_bool(0.2) {
                        pick(&mut rng, &ghosts).filter(|g| !ids.contains(g))
                    } else {
                        None
                    }
                    .unwrap_or_else(crate::time::new_id);
                    let names: Vec<String> = ids.iter().chain(&ghosts).cloned().collect();
                    let deps: BTreeSet<String> = (0..rng.gen_range(0..4))
                        .filter_map(|_| pick(&mut rng, &names))
                        .collect();
                    let task = NewTask {
                        id: id.clone(),
                        status: if rng.gen_bool(0.7) {
                            TaskStatus::Pending
                        } else {
                            TaskStatus::ALL.choose(&mut rng).unwrap().clone()
                        },
                        mission_id: pick(&mut rng, &mission_ids).filter(|_| rng.gen_bool(0.8)),
                        depends_on: deps.into_iter().collect(),
                        priority: rng.gen_range(0..3),
                        ..NewTask::new(&team, &workspace.id, "task")
                    };
                    tasks::insert(&mut tx, &task).await.unwrap();
                    ids.push(id);
                }
                (3, Some(t)) => {
                    let status = TaskStatus::ALL.choose(&mut rng).unwrap();
                    tasks::set_outcome(&mut tx, &t, status, None, &at)
                        .await
                        .unwrap();
                }
                (4, Some(t)) => {
                    tasks::claim(&mut tx, &t, "acct", &at, "2099-01-01T00:00:00.000Z")
                        .await
                        .unwrap();
                }
                (5, Some(t)) => {
                    let requeue = Requeue {
                        task_id: &t,
                        lease: None,
                        clear_result: false,
                        at: &at,
                    };
                    tasks::requeue(&mut tx, &requeue).await.unwrap();
                    tasks::cancel(&mut tx, &pick(&mut rng, &ids[1..]).unwrap(), &at)
                        .await
                        .unwrap();
                }
                (6, Some(t)) => {
                    let names: Vec<String> = ids.iter().chain(&ghosts).cloned().collect();
                    let patch = TaskPatch {
                        depends_on: Some(
                            (0..rng.gen_range(0..3))
                                .filter_map(|_| pick(&mut rng, &names))
                                .filter(|d| *d != t)
                                .collect::<BTreeSet<_>>()
                                .into_iter()
                                .collect(),
                        ),
                        mission_id: rng.gen_bool(0.3).then(|| pick(&mut rng, &mission_ids)),
                        priority: Some(rng.gen_range(0..3)),
                        status: rng
                            .gen_bool(0.3)
                            .then(|| TaskStatus::ALL.choose(&mut rng).unwrap().clone()),
                        ..TaskPatch::default()
                    };
                    tasks::update(&mut tx, &t, &patch, &at).await.unwrap();
                }
                (7, Some(t)) => {
                    tasks::delete(&mut tx, &team, &t).await.unwrap();
                    ids.retain(|i| *i != t);
                }
                (8, Some(t)) => {
                    pr += 1;
                    let worker = NewWorker {
                        pr_url: rng
                            .gen_bool(0.7)
                            .then(|| format!("https://github.com/acme/web/pull/{pr}")),
                        pr_number: Some(pr),
                        ..NewWorker::new(&t, &workspace.id, "r", &at)
                    };
                    workers::insert(&mut tx, &worker).await.unwrap();
                }
                (9, Some(_)) => {
                    let number = rng.gen_range(0..=pr.max(1));
                    workers::mark_pr_merged(&mut tx, &workspace.id, number, &at)
                        .await
                        .unwrap();
                }
                (10, Some(t)) => {
                    let how = ["pr_open", "closed", "merged"].choose(&mut rng).unwrap();
                    sql::query("UPDATE workers SET pr_lifecycle_status = ? WHERE task_id = ?")
                        .bind(how)
                        .bind(&t)
                        .execute(&mut tx)
                        .await
                        .unwrap();
                }
                (11, Some(_)) => {
                    let status = [
                        "active",
                        "paused",
                        "completed",
                        "archived",
                        "budget_exhausted",
                    ]
                    .choose(&mut rng)
                    .unwrap();
                    sql::query("UPDATE missions SET status = ?, is_held = ? WHERE id = ?")
                        .bind(status)
                        .bind(rng.gen_bool(0.2))
                        .bind(pick(&mut rng, &mission_ids))
                        .execute(&mut tx)
                        .await
                        .unwrap();
                }
                (12, Some(_)) if mission_ids.len() > 1 && rng.gen_bool(0.5) => {
                    let gone = mission_ids.remove(rng.gen_range(0..mission_ids.len()));
                    sql::query("DELETE FROM missions WHERE id = ?")
                        .bind(&gone)
                        .execute(&mut tx)
                        .await
                        .unwrap();
                }
                (12, Some(_)) => {
                    let mission = NewMission::new(&team, format!("m at {step}"));
                    missions::insert(&mut tx, &mission).await.unwrap();
                    mission_ids.push(mission.id);
                }
                (_, Some(t)) => {
                    sql::query("DELETE FROM workers WHERE task_id = ?")
                        .bind(&t)
                        .execute(&mut tx)
                        .await
                        .unwrap();
                }
            }
            let (want, have) = (expected(&mut tx).await, kept(&mut tx).await);
            assert_eq!(have, want, "after step {step} (kind {kind})");
            if rng.gen_bool(0.1) {
                // Rolled back: the queue goes back with the rest.
                drop(tx);
                (ids, mission_ids) = before;
            } else {
                tx.commit().await.unwrap();
            }
        }
        let mut tx = db.read().await.unwrap();
        assert_eq!(kept(&mut tx).await, expected(&mut tx).await);
        let ready = kept(&mut tx)
            .await
            .values()
            .filter(|(r, s, _)| *r && *s == 0)
            .count();
        assert!(
            ready > 0 && ready < ids.len(),
            "{ready} of {} claimable",
            ids.len()
        );
        assert!(
            kinds.iter().all(|k| *k > 0),
            "every kind of write ran: {kinds:?}"
        );
    }

    /// A claim reads its tasks off the claimable indexes (or the task's own row), in claim
    /// order, without scanning a table or sorting.
    #[tokio::test]
    async fn a_claim_walks_the_claimable_index() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("d.db")).await.unwrap();
        let mut tx = db.read().await.unwrap();
        for (workspace, task, index) in [
            (None, None, "claim_queue_claimable "),
            (Some("w"), None, "claim_queue_claimable_in_workspace"),
            (None, Some("t"), "sqlite_autoindex_claim_queue_1"),
            (Some("w"), Some("t"), "sqlite_autoindex_claim_queue_1"),
        ] {
            let f = QueueFilter {
                team_id: "team",
                workspace_id: workspace,
                task_id: task,
            };
            let sql = format!("EXPLAIN QUERY PLAN {}", claimable_sql(&f));
            let plan: Vec<(i64, i64, i64, String)> =
                bound(&sql, &f, "now", 3).fetch_all(&mut tx).await.unwrap();
            let plan: Vec<String> = plan.into_iter().map(|(_, _, _, d)| d).collect();
            let text = plan.join("\n");
            assert!(text.contains(&format!("USING INDEX {index}")), "{text}");
            assert!(!text.contains("SCAN"), "{text}");
            assert!(!text.contains("TEMP B-TREE"), "{text}");
        }
    }
}
