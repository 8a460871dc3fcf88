//! Stall notices: an open PR that has not moved for its policy's `stallNotifyMinutes` tells
//! its mission once, with what holds it, until it moves again.

use super::rails::context;
use crate::db::Db;
use crate::error::ApiResult;
use crate::store::notes::system_note;
use crate::store::prs::{PrRow, PR_COLUMNS};
use crate::time::iso;
use buildd_core::merge_policy::stall_notice_due;
use chrono::{DateTime, Utc};

fn parse(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Posts the stall notices due at `now`; returns how many. Only PRs quiet for a minute
/// and not told since they last moved are looked at, each in its own transaction.
pub async fn notify_stalls(db: &Db, now: DateTime<Utc>) -> ApiResult<usize> {
    // It last moved when it was reported, CI ran, or a review began or ended.
    let candidates: Vec<(String, String)> = {
        let mut tx = db.read().await?;
        sqlx::query_as(
            "SELECT id, moved FROM (SELECT p.id, p.stall_notified_at AS told, MAX(p.updated_at, \
               COALESCE((SELECT MAX(c.created_at) FROM check_runs c WHERE c.pr_id = p.id), ''), \
               COALESCE((SELECT MAX(COALESCE(r.decided_at, r.created_at)) FROM pr_reviews r \
                         WHERE r.pr_id = p.id), '')) AS moved \
             FROM pull_requests p WHERE p.state = 'open' AND p.mission_id IS NOT NULL) \
             WHERE moved <= ? AND (told IS NULL OR told < moved)",
        )
        .bind(iso(now - chrono::Duration::minutes(1)))
        .fetch_all(&mut *tx)
        .await?
    };
    let mut told = 0;
    for (id, moved) in candidates {
        let Some(moved) = parse(&moved) else { continue };
        let mut tx = db.write().await?;
        // It may have merged since the candidates were read.
        let pr: Option<PrRow> = sqlx::query_as(&format!(
            "SELECT {PR_COLUMNS} FROM pull_requests p WHERE p.id = ? AND p.state = 'open'"
        ))
        .bind(&id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(pr) = pr else { continue };
        let ctx = context(&mut tx, &pr).await?;
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
        tx.commit().await?;
        told += 1;
    }
    Ok(told)
}
