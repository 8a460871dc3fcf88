//! The Postgres schema against the SQLite one: the same tables, columns and indexes; the
//! rules its triggers call are buildd-core's; and the same writes leave the same derived
//! rows (the claim queue, dependencies, current workers, costs and spend, and which tasks
//! of which mission moved) on both.

use buildd_core::claims::ClaimStop;
use buildd_core::dependencies::dependency_satisfied;
use buildd_core::{MissionStatus, TaskStatus};
use buildd_server::db::postgres;
use buildd_server::Db;
use buildd_testkit::postgres::fresh_database;
use sqlx::postgres::PgPool;
use std::collections::{BTreeMap, BTreeSet};

/// Tables only SQLite has: its counters and change list, which the change log replaces.
const SQLITE_ONLY: [&str; 5] = [
    "_sqlx_migrations",
    "sqlite_sequence",
    "generation",
    "task_changes",
    "task_changes_floor",
];

async fn sqlite() -> (Db, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("s.db")).await.unwrap();
    (db, dir)
}

async fn pg() -> PgPool {
    let database = fresh_database().await;
    postgres::open(&database.url, 4).await.unwrap()
}

async fn sqlite_rows<T>(db: &Db, sql: &str) -> Vec<T>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + Send + Unpin,
{
    sqlx::query_as(sql)
        .fetch_all(db.read().await.unwrap().sqlite())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn pg_rows<T>(pool: &PgPool, sql: &str) -> Vec<T>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    sqlx::query_as(sql)
        .fetch_all(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

#[tokio::test]
async fn the_migrations_apply_once_and_readiness_names_one_missing() {
    let database = fresh_database().await;
    let pool = postgres::open(&database.url, 2).await.unwrap();
    assert_eq!(postgres::ready(&pool).await, Ok(()));
    // Opened again (another replica starting): nothing to apply, still ready.
    let again = postgres::open(&database.url, 2).await.unwrap();
    assert_eq!(postgres::ready(&again).await, Ok(()));
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 1")
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(
        postgres::ready(&pool).await,
        Err("migrations not applied: 1".to_string())
    );
    pool.close().await;
    let closed = postgres::ready(&pool).await.unwrap_err();
    assert!(closed.contains("does not answer"), "{closed}");
}

/// Every SQLite table but its counters is on Postgres with the same columns, each as
/// nullable, of the matching type, with a default where SQLite has one; and the
/// change log's tables are Postgres's only others.
#[tokio::test]
async fn the_tables_and_columns_are_sqlites() {
    let (db, _dir) = sqlite().await;
    let pool = pg().await;
    let tables: Vec<(String,)> =
        sqlite_rows(&db, "SELECT name FROM sqlite_master WHERE type = 'table'").await;
    let tables: BTreeSet<String> = tables
        .into_iter()
        .map(|(t,)| t)
        .filter(|t| !SQLITE_ONLY.contains(&t.as_str()))
        .collect();
    let pg_tables: Vec<(String,)> = pg_rows(
        &pool,
        "SELECT table_name::text FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    .await;
    let pg_tables: BTreeSet<String> = pg_tables.into_iter().map(|(t,)| t).collect();
    let only_pg: Vec<&String> = pg_tables.difference(&tables).collect();
    assert_eq!(
        only_pg,
        ["_sqlx_migrations", "change_sequence", "changes"],
        "tables only on Postgres"
    );
    assert!(tables.is_subset(&pg_tables), "{tables:?} vs {pg_tables:?}");
    for table in &tables {
        let columns: Vec<(String, String, i64, Option<String>, i64)> = sqlite_rows(
            &db,
            &format!(
                "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('{table}')"
            ),
        )
        .await;
        let sqlite: BTreeMap<String, (String, bool, bool)> = columns
            .into_iter()
            .map(|(name, ty, not_null, default, pk)| {
                let ty = match ty.as_str() {
                    "INTEGER" => "bigint",
                    "REAL" => "double precision",
                    "TEXT" => "text",
                    other => panic!("{table}.{name}: type {other}"),
                };
                (
                    name,
                    (ty.to_string(), not_null == 1 || pk > 0, default.is_some()),
                )
            })
            .collect();
        let columns: Vec<(String, String, String, Option<String>)> = pg_rows(
            &pool,
            &format!(
                "SELECT column_name::text, data_type::text, is_nullable::text, \
                        column_default::text \
                 FROM information_schema.columns WHERE table_name = '{table}' \
                   AND column_name <> 'rowid'"
            ),
        )
        .await;
        let postgres: BTreeMap<String, (String, bool, bool)> = columns
            .into_iter()
            .map(|(name, ty, nullable, default)| (name, (ty, nullable == "NO", default.is_some())))
            .collect();
        assert_eq!(postgres, sqlite, "the columns of {table}");
    }
}

/// Every named SQLite index is on Postgres, unique where SQLite's is.
#[tokio::test]
async fn the_indexes_are_sqlites() {
    let (db, _dir) = sqlite().await;
    let pool = pg().await;
    let indexes: Vec<(String, i64)> = sqlite_rows(
        &db,
        "SELECT m.name, (SELECT \"unique\" FROM pragma_index_list(m.tbl_name) l \
                         WHERE l.name = m.name) \
         FROM sqlite_master m WHERE m.type = 'index' AND m.name NOT LIKE 'sqlite_%' \
           AND m.name <> 'task_changes_by_mission'",
    )
    .await;
    let postgres: Vec<(String, bool)> = pg_rows(
        &pool,
        "SELECT c.relname::text, i.indisunique FROM pg_index i \
         JOIN pg_class c ON c.oid = i.indexrelid \
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'",
    )
    .await;
    let postgres: BTreeMap<String, bool> = postgres.into_iter().collect();
    assert!(indexes.len() > 20, "{indexes:?}");
    for (name, unique) in indexes {
        assert_eq!(postgres.get(&name), Some(&(unique == 1)), "index {name}");
    }
}

/// The functions the triggers call answer as buildd-core's rules, for every status, one
/// the enum does not know, and NULL.
#[tokio::test]
async fn the_trigger_rules_are_buildd_cores() {
    let pool = pg().await;
    let statuses = TaskStatus::ALL.iter().map(|s| Some(s.as_str()));
    for status in statuses.chain([Some("unknown"), None]) {
        for open_pr in [false, true] {
            let sql: i64 = sqlx::query_scalar("SELECT buildd_dependency_satisfied($1, $2)")
                .bind(status)
                .bind(i64::from(open_pr))
                .fetch_one(&pool)
                .await
                .unwrap();
            let core = dependency_satisfied(&TaskStatus::parse(status.unwrap_or("")), open_pr);
            assert_eq!(sql, i64::from(core), "{status:?}, open PR {open_pr}");
        }
    }
    let statuses = MissionStatus::ALL.iter().map(|s| Some(s.as_str()));
    for status in statuses.chain([Some("unknown"), None]) {
        for held in [false, true] {
            let sql: i64 = sqlx::query_scalar("SELECT buildd_claim_stop($1, $2)")
                .bind(status)
                .bind(i64::from(held))
                .fetch_one(&pool)
                .await
                .unwrap();
            let core = ClaimStop::of(&MissionStatus::parse(status.unwrap_or("")), held).code();
            assert_eq!(sql, core, "{status:?}, held {held}");
        }
    }
}

/// Writes of a mission's life, spelled the same for both databases (literals, no
/// parameters), each its own transaction.
const WRITES: &[&str] = &[
    "INSERT INTO teams (id, name, created_at) VALUES ('t1', 'One', '2026-01-01T00:00:00.000Z')",
    "INSERT INTO teams (id, name, created_at) VALUES ('t2', 'Two', '2026-01-01T00:00:00.000Z')",
    "INSERT INTO workspaces (id, team_id, name, created_at, updated_at) \
     VALUES ('w1', 't1', 'api', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    "INSERT INTO workspaces (id, team_id, name, created_at, updated_at) \
     VALUES ('w2', 't2', 'web', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    "INSERT INTO missions (id, team_id, workspace_id, title, created_at, updated_at) \
     VALUES ('m1', 't1', 'w1', 'Ship', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    "INSERT INTO missions (id, team_id, workspace_id, title, created_at, updated_at) \
     VALUES ('m2', 't1', 'w1', 'Polish', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, depends_on, priority, \
                        created_at, updated_at) \
     VALUES ('a', 't1', 'w1', 'm1', 'A', '[]', 1, '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:01.000Z')",
    "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, depends_on, \
                        created_at, updated_at) \
     VALUES ('b', 't1', 'w1', 'm1', 'B', '[\"a\"]', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:02.000Z')",
    "INSERT INTO tasks (id, team_id, workspace_id, mission_id, title, depends_on, \
                        created_at, updated_at) \
     VALUES ('c', 't1', 'w1', 'm1', 'C', '[\"a\", \"b\", \"ghost\", \"a\"]', \
             '2026-01-01T00:00:03.000Z', '2026-01-01T00:00:03.000Z')",
    "INSERT INTO tasks (id, team_id, workspace_id, title, created_at, updated_at) \
     VALUES ('d', 't1', 'w1', 'D', '2026-01-01T00:00:04.000Z', '2026-01-01T00:00:04.000Z')",
    "INSERT INTO tasks (id, team_id, workspace_id, title, depends_on, created_at, updated_at) \
     VALUES ('e', 't2', 'w2', 'E', '[\"a\"]', '2026-01-01T00:00:05.000Z', '2026-01-01T00:00:05.000Z')",
    // A run of `a` that costs, then a second.
    "INSERT INTO workers (id, task_id, workspace_id, name, runner, cost_micros, created_at, \
                          updated_at) \
     VALUES ('wa1', 'a', 'w1', 'one', 'r', 100, '2026-01-01T00:01:00.000Z', '2026-01-01T00:01:00.000Z')",
    "UPDATE tasks SET status = 'in_progress' WHERE id = 'a'",
    "INSERT INTO workers (id, task_id, workspace_id, name, runner, created_at, updated_at) \
     VALUES ('wa2', 'a', 'w1', 'two', 'r', '2026-01-01T00:02:00.000Z', '2026-01-01T00:02:00.000Z')",
    "UPDATE workers SET cost_micros = 50 WHERE id = 'wa2'",
    "UPDATE workers SET cost_micros = 70, pr_url = 'https://x/pr/1' WHERE id = 'wa2'",
    // Done, with its PR open: `b` still waits; merged, it may start.
    "UPDATE tasks SET status = 'completed' WHERE id = 'a'",
    "UPDATE workers SET merged_at = '2026-01-01T00:03:00.000Z' WHERE id = 'wa2'",
    // The mission stops its tasks and lets them go.
    "UPDATE missions SET status = 'paused' WHERE id = 'm1'",
    "UPDATE missions SET status = 'budget_exhausted', is_held = 1 WHERE id = 'm1'",
    "UPDATE missions SET is_held = 0 WHERE id = 'm1'",
    "UPDATE missions SET status = 'active' WHERE id = 'm1'",
    "UPDATE missions SET status = 'paused' WHERE id = 'm2'",
    // A task moved to another mission takes its place and cost along.
    "UPDATE tasks SET mission_id = 'm2' WHERE id = 'a'",
    "UPDATE tasks SET mission_id = 'm2', priority = 5 WHERE id = 'b'",
    // Dependencies rewritten; the missing one appears; one goes.
    "UPDATE tasks SET depends_on = '[\"b\"]' WHERE id = 'c'",
    "INSERT INTO tasks (id, team_id, workspace_id, title, status, created_at, updated_at) \
     VALUES ('ghost', 't1', 'w1', 'G', 'cancelled', '2026-01-01T00:00:06.000Z', '2026-01-01T00:00:06.000Z')",
    "UPDATE tasks SET status = 'assigned' WHERE id = 'b'",
    "UPDATE tasks SET status = 'pending' WHERE id = 'b'",
    "DELETE FROM tasks WHERE id = 'd'",
    // Rows of the other tables that count as a team's changes.
    "INSERT INTO pull_requests (id, team_id, workspace_id, task_id, mission_id, number, \
                                created_at, updated_at) \
     VALUES ('p1', 't1', 'w1', 'a', 'm2', 1, '2026-01-01T00:04:00.000Z', '2026-01-01T00:04:00.000Z')",
    "INSERT INTO check_runs (id, pr_id, head_sha, name, status, created_at) \
     VALUES ('k1', 'p1', 'abc', 'ci', 'queued', '2026-01-01T00:04:01.000Z')",
    "INSERT INTO pr_reviews (id, pr_id, iteration, created_at) \
     VALUES ('r1', 'p1', 1, '2026-01-01T00:04:02.000Z')",
    "INSERT INTO mission_notes (id, team_id, mission_id, author_type, type, title, status, \
                                created_at) \
     VALUES ('n1', 't1', 'm1', 'user', 'note', 'Hello', 'open', '2026-01-01T00:04:03.000Z')",
    "INSERT INTO checkins (id, mission_id, at, outcome, text) \
     VALUES ('c1', 'm1', '2026-01-01T00:04:04.000Z', 'deferred', 'later')",
    "INSERT INTO schedules (id, team_id, name, created_at, updated_at) \
     VALUES ('s1', 't2', 'nightly', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    "UPDATE check_runs SET status = 'completed', conclusion = 'success' WHERE id = 'k1'",
    // A mission deleted: its tasks stay, without one.
    "DELETE FROM missions WHERE id = 'm2'",
];

/// What the triggers keep, read the same way from either database.
const DERIVED: &[&str] = &[
    "SELECT task_id, team_id, workspace_id, COALESCE(mission_id, '-'), priority, created_at, \
            COALESCE(start_at, '-'), ready, stopped FROM claim_queue ORDER BY task_id",
    "SELECT task_id, depends_on, '', '', CAST(0 AS BIGINT), '', '', CAST(0 AS BIGINT), CAST(0 AS BIGINT) FROM claim_queue_deps \
     ORDER BY task_id, depends_on",
    "SELECT task_id, depends_on, '', '', CAST(0 AS BIGINT), '', '', CAST(0 AS BIGINT), CAST(0 AS BIGINT) FROM task_dependencies \
     ORDER BY task_id, depends_on",
    "SELECT id, COALESCE(latest_worker_id, '-'), COALESCE(mission_id, '-'), status, \
            cost_micros, '', '', CAST(0 AS BIGINT), CAST(0 AS BIGINT) FROM tasks ORDER BY id",
    "SELECT id, status, '', '', spend_micros, '', '', is_held, CAST(0 AS BIGINT) FROM missions ORDER BY id",
];

type Derived = (
    String,
    String,
    String,
    String,
    i64,
    String,
    String,
    i64,
    i64,
);

#[tokio::test]
async fn the_same_writes_leave_the_same_derived_rows() {
    let (db, _dir) = sqlite().await;
    let pool = pg().await;
    for (i, sql) in WRITES.iter().enumerate() {
        let mut tx = db.write().await.unwrap();
        sqlx::query(sql)
            .execute(tx.sqlite())
            .await
            .unwrap_or_else(|e| panic!("SQLite, write {i}: {e}"));
        tx.commit().await.unwrap();
        sqlx::query(sql)
            .execute(&pool)
            .await
            .unwrap_or_else(|e| panic!("Postgres, write {i}: {e}"));
        for read in DERIVED {
            let sqlite: Vec<Derived> = sqlite_rows(&db, read).await;
            let postgres: Vec<Derived> = pg_rows(&pool, read).await;
            assert_eq!(postgres, sqlite, "after write {i} ({sql}): {read}");
        }
    }
    // The story did what it says: `b` and `c` queued and ready, `e` waits on another
    // team's `a`, and the money stayed with the missions.
    let queue: Vec<Derived> = pg_rows(&pool, DERIVED[0]).await;
    let ready: Vec<(&str, i64, i64)> = queue.iter().map(|q| (q.0.as_str(), q.7, q.8)).collect();
    assert_eq!(ready, [("b", 1, 0), ("c", 0, 0), ("e", 0, 0)]);
    let missions: Vec<Derived> = pg_rows(&pool, DERIVED[4]).await;
    assert_eq!(missions.len(), 1);
    assert_eq!(missions[0].4, 0, "m1's spend left with `a`");

    // The change log holds a row for each row written where SQLite counts one for its team.
    let counts: Vec<(String, i64)> = sqlite_rows(&db, "SELECT id, changes FROM teams").await;
    let logged: Vec<(String, i64)> = pg_rows(
        &pool,
        "SELECT t.id, (SELECT COUNT(*) FROM changes c WHERE c.team_id = t.id) FROM teams t",
    )
    .await;
    let counts: BTreeMap<String, i64> = counts.into_iter().collect();
    let logged: BTreeMap<String, i64> = logged.into_iter().collect();
    assert!(counts["t1"] > 20 && counts["t2"] > 2, "{counts:?}");
    assert_eq!(logged, counts);

    // And names the same tasks of the same missions as moved as SQLite's list does.
    let moved: Vec<(String, String)> =
        sqlite_rows(&db, "SELECT DISTINCT mission_id, task_id FROM task_changes").await;
    let logged: Vec<(String, String)> = pg_rows(
        &pool,
        "SELECT mission_id, task_id FROM changes WHERE mission_id IS NOT NULL \
           AND task_id IS NOT NULL \
         UNION SELECT moved_from, task_id FROM changes WHERE moved_from IS NOT NULL",
    )
    .await;
    let moved: BTreeSet<(String, String)> = moved.into_iter().collect();
    let logged: BTreeSet<(String, String)> = logged.into_iter().collect();
    assert_eq!(logged, moved);
}

/// A read is one snapshot that writes nothing, and every session has the statement and
/// idle-in-transaction timeouts the server sets.
#[tokio::test]
async fn a_read_is_one_read_only_snapshot_and_sessions_have_their_timeouts() {
    let database = fresh_database().await;
    let db = Db::open_postgres(&database.url, 2).await.unwrap();
    let mut tx = db.read().await.unwrap();
    let shown = |name: &'static str| format!("SELECT current_setting('{name}')");
    let mut settings = Vec::new();
    for name in [
        "transaction_isolation",
        "transaction_read_only",
        "statement_timeout",
        "idle_in_transaction_session_timeout",
    ] {
        let (value,): (String,) = buildd_server::db::sql::query_as(&shown(name))
            .fetch_one(&mut tx)
            .await
            .unwrap();
        settings.push(value);
    }
    assert_eq!(settings, ["repeatable read", "on", "30s", "30s"]);
    let refused = buildd_server::db::sql::query("CREATE TABLE t (x INT)")
        .execute(&mut tx)
        .await;
    assert!(refused.is_err(), "a read wrote");
}

/// The functions the triggers call on every task and worker write keep one generic plan
/// per session: left to choose, Postgres planned their statements again at every call.
#[tokio::test]
async fn the_claim_queues_functions_keep_one_plan() {
    let pool = pg().await;
    let configs: Vec<(String, Vec<String>)> = pg_rows(
        &pool,
        "SELECT proname::text, COALESCE(proconfig, '{}') FROM pg_proc \
         WHERE proname IN ('claim_queue_judge', 'claim_queue_enqueue') ORDER BY proname",
    )
    .await;
    assert_eq!(configs.len(), 2, "{configs:?}");
    for (name, config) in configs {
        assert_eq!(
            config,
            ["plan_cache_mode=force_generic_plan"],
            "{name} plans afresh"
        );
    }
}
