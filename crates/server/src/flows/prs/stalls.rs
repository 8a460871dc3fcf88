//! Stall notices: an open PR that has not moved for its policy's `stallNotifyMinutes` tells
//! its mission once, with what holds it, until it moves again.

use super::rails::context;
use crate::db::Db;
use crate::error::ApiResult;
use crate::store::notes::system_note;
use crate::store::prs::{open_pr_by_id, pr_moved, quiet_prs, set_stall_notified};
use crate::time::iso;
use buildd_core::merge_policy::stall_notice_due;
use buildd_core::NoteKind;
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
    let candidates = {
        let mut tx = db.read().await?;
        quiet_prs(&mut tx, &iso(now - chrono::Duration::minutes(1))).await?
    };
    let mut told = 0;
    for id in candidates {
        let mut tx = db.write().await?;
        // It may have merged or moved since the candidates were read: both are read again
        // in the transaction that tells about it.
        let Some(pr) = open_pr_by_id(&mut tx, &id).await? else {
            continue;
        };
        let Some(moved) = pr_moved(&mut tx, &id).await?.as_deref().and_then(parse) else {
            continue;
        };
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
            NoteKind::Warning,
            &title,
            Some(body),
        )
        .await?;
        set_stall_notified(&mut tx, &pr.id, &iso(now)).await?;
        tx.commit().await?;
        told += 1;
    }
    Ok(told)
}
