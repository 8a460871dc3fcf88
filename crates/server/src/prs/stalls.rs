//! Stall notices: an open PR that has not moved for its policy's `stallNotifyMinutes` tells
//! its mission once, with what holds it, until it moves again.

use super::{context, PrRow, PR_COLUMNS};
use crate::db::Db;
use crate::error::ApiResult;
use crate::notes::system_note;
use crate::time::iso;
use buildd_core::merge_policy::stall_notice_due;
use chrono::{DateTime, Utc};

fn parse(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Posts the stall notices due at `now`; returns how many.
pub async fn notify_stalls(db: &Db, now: DateTime<Utc>) -> ApiResult<usize> {
    let mut tx = db.write().await?;
    let open: Vec<PrRow> = sqlx::query_as(&format!(
        "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.state = 'open' \
         AND p.mission_id IS NOT NULL"
    ))
    .fetch_all(&mut *tx)
    .await?;
    let mut told = 0;
    for pr in open {
        let ctx = context(&mut tx, &pr).await?;
        // It last moved when it was reported, CI ran, or a review began or ended.
        let (check,): (Option<String>,) =
            sqlx::query_as("SELECT MAX(created_at) FROM check_runs WHERE pr_id = ?")
                .bind(&pr.id)
                .fetch_one(&mut *tx)
                .await?;
        let moved = [Some(pr.updated_at.clone()), check]
            .into_iter()
            .chain(
                ctx.reviews
                    .iter()
                    .map(|r| r.decided_at.clone().or(Some(r.created_at.clone()))),
            )
            .flatten()
            .filter_map(|t| parse(&t))
            .max();
        let Some(moved) = moved else { continue };
        let notified = pr.stall_notified_at.as_deref().and_then(parse);
        let Some(minutes) = stall_notice_due(&ctx.policy.policy, moved, notified, now) else {
            continue;
        };
        let evaluation = ctx.evaluation(&pr);
        if evaluation.auto_merge {
            continue;
        }
        let mission = pr.mission_id.as_deref().unwrap_or_default();
        let title = format!("PR #{} has waited {minutes} min", pr.number);
        let body = evaluation.reasons.join("\n\n");
        system_note(
            &mut tx,
            &pr.team_id,
            mission,
            pr.task_id.as_deref(),
            "warning",
            &title,
            Some(body),
        )
        .await?;
        sqlx::query("UPDATE pull_requests SET stall_notified_at = ? WHERE id = ?")
            .bind(iso(now))
            .bind(&pr.id)
            .execute(&mut *tx)
            .await?;
        told += 1;
    }
    tx.commit().await?;
    Ok(told)
}
