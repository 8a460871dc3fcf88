//! Each team's count of writes to what its pages show (`teams.changes`), for the change
//! stream. On SQLite, triggers on every table a page reads move it as they write. On
//! Postgres the triggers only append to the change log, and [`sequence`] counts the log's
//! settled rows into it, so no row is written by every write.

use crate::db::sql;
use crate::db::{Db, Tx};
use crate::error::ApiResult;

/// The count of every team, by id.
pub async fn all(tx: &mut Tx) -> ApiResult<Vec<(String, i64)>> {
    Ok(sql::query_as("SELECT id, changes FROM teams")
        .fetch_all(tx)
        .await?)
}

/// The count of one team; 0 for a team that is gone.
pub async fn of(tx: &mut Tx, team_id: &str) -> ApiResult<i64> {
    let row: Option<(i64,)> = sql::query_as("SELECT changes FROM teams WHERE id = ?")
        .bind(team_id)
        .fetch_optional(tx)
        .await?;
    Ok(row.map_or(0, |(n,)| n))
}

/// Advisory lock key of the sequencer: one replica sequences at a time.
const SEQUENCER: i64 = 0x6275_696c_6464;

/// Postgres: gives the change log's committed rows their positions, in one step, and adds
/// each team's to its count. A row committed after the step's snapshot waits for the next
/// step; a reader that sees a row without a position takes it as changed. Another replica
/// sequencing now makes this a no-op. Nothing to do on SQLite.
pub async fn sequence(tx: &mut Tx) -> ApiResult<()> {
    if !tx.is_postgres() {
        return Ok(());
    }
    let (ours,): (bool,) = sql::query_as("SELECT pg_try_advisory_xact_lock(?)")
        .bind(SEQUENCER)
        .fetch_one(tx)
        .await?;
    if !ours {
        return Ok(());
    }
    sql::query(
        "WITH settled AS ( \
           SELECT id, row_number() OVER (ORDER BY id) AS n FROM changes \
           WHERE position IS NULL), \
         placed AS ( \
           UPDATE changes c SET position = s.position + settled.n \
           FROM settled, change_sequence s WHERE c.id = settled.id AND s.id = 1 \
           RETURNING c.team_id), \
         counted AS ( \
           UPDATE teams t SET changes = t.changes + p.n \
           FROM (SELECT team_id, COUNT(*) AS n FROM placed GROUP BY team_id) p \
           WHERE t.id = p.team_id) \
         UPDATE change_sequence SET position = position + (SELECT COUNT(*) FROM placed) \
         WHERE id = 1",
    )
    .execute(tx)
    .await?;
    Ok(())
}

/// Postgres: drops all but the newest `kept` rows of the change log, `at_once` rows a
/// transaction, once at least as many more have gathered. Rows are dropped placed or not: the
/// counts only signal that something moved, and the newest rows, kept, still move them when
/// they are placed.
pub async fn prune(db: &Db, kept: i64, at_once: i64) -> ApiResult<()> {
    let (logged,): (i64,) = {
        let mut tx = db.read().await?;
        sql::query_as("SELECT COALESCE(MAX(id) - MIN(id) + 1, 0) FROM changes")
            .fetch_one(&mut tx)
            .await?
    };
    if logged <= kept.saturating_mul(2) {
        return Ok(());
    }
    delete_in_slices(
        db,
        "DELETE FROM changes WHERE id IN (SELECT id FROM changes \
           WHERE id <= (SELECT MAX(id) FROM changes) - ? ORDER BY id LIMIT ?)",
        &[kept, at_once],
    )
    .await
}

/// Runs `delete` (its `?`s bound to `binds`) a transaction at a time until it deletes
/// nothing, so the writes queued behind each wait a moment, not the whole deletion.
pub(super) async fn delete_in_slices(db: &Db, delete: &str, binds: &[i64]) -> ApiResult<()> {
    loop {
        let mut tx = db.write().await?;
        let mut query = sql::query(delete);
        for bind in binds {
            query = query.bind(*bind);
        }
        let deleted = query.execute(&mut tx).await?.rows_affected();
        tx.commit().await?;
        if deleted == 0 {
            return Ok(());
        }
    }
}
