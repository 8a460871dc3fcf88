//! The demo team's past: a mission done over the last ten weeks, planned twice, a change
//! merged every few days at varied hours, one failure retried, so the Insights page's weeks
//! and busiest hours, a finished mission's pictures and the merge policy's what-if all have
//! something to say on first open.

use super::seeder::{step, Run, Seeder, TaskSpec};
use crate::error::ApiResult;
use crate::store::missions;
use buildd_core::money::Usd;
use chrono::{Duration, NaiveTime, Utc};
use serde_json::json;

const DAY: i64 = 60 * 24;

/// A change of the first plan and of the second, each with the day it ran (days ago) and
/// the hour (UTC) of that day it started, so the picture of busy hours has a shape.
const FIRST: [(&str, i64, i64); 6] = [
    ("Add the indexing queue", 66, 9),
    ("Index on product change", 62, 11),
    ("Index product variants", 58, 14),
    ("Drop stale index entries", 53, 10),
    ("Batch index writes", 48, 16),
    ("Backfill the index", 44, 13),
];
const SECOND: [(&str, i64, i64); 6] = [
    ("Rank results by freshness", 36, 10),
    ("Search suggestions as you type", 31, 15),
    ("Typo-tolerant matching", 27, 9),
    ("Synonyms from the catalogue", 22, 11),
    ("Search analytics events", 18, 14),
    ("Index health dashboard", 15, 17),
];

/// How long ago `hour` o'clock (UTC) was, `days` days back.
fn minutes_ago(days: i64, hour: i64) -> i64 {
    let now = Utc::now();
    let midnight = now.date_naive().and_time(NaiveTime::MIN).and_utc();
    (now - (midnight - Duration::days(days) + Duration::hours(hour))).num_minutes()
}

pub(super) async fn seed(s: &mut Seeder<'_>) -> ApiResult<()> {
    let m = s
        .mission(
            "Search indexing",
            "Index products in the background so search results are never stale by more than a minute.",
            "completed",
            0,
            70 * DAY,
        )
        .await?;
    missions::set_budget(s.tx, &m, Some(Usd::from_cents(2_500)), false).await?;
    let plans = [
        (FIRST, 67, "Index products in the background"),
        (SECOND, 37, "Make search results better"),
    ];
    for (changes, planned_days_ago, summary) in plans {
        let plan = json!(changes
            .iter()
            .enumerate()
            .map(|(i, (title, _, _))| step(&format!("s{i}"), title, summary, &[]))
            .collect::<Vec<_>>());
        let planner = s
            .organizer(
                &m,
                "Search indexing",
                "completed",
                plan,
                planned_days_ago * DAY,
            )
            .await?;
        for (title, days, hour) in changes {
            let spec = TaskSpec {
                title,
                description: summary,
                status: "completed",
                parent: Some(&planner),
                minutes_ago: minutes_ago(days, hour),
                ..Default::default()
            };
            if title == "Typo-tolerant matching" {
                failed_then_retried(s, &m, spec).await?;
            } else {
                s.task(&m, spec, Run::MergedPr).await?;
            }
        }
    }
    Ok(())
}

/// `spec` failed first, and its retry a few hours later merged.
async fn failed_then_retried(s: &mut Seeder<'_>, m: &str, spec: TaskSpec<'_>) -> ApiResult<()> {
    let retry_at = spec.minutes_ago - 4 * 60;
    let title = spec.title;
    let first = s
        .task(
            m,
            TaskSpec {
                status: "failed",
                ..spec
            },
            Run::Failed("The fuzzy matcher timed out on long queries"),
        )
        .await?;
    let retry_title = format!("[CI Retry] {title}");
    s.task(
        m,
        TaskSpec {
            title: &retry_title,
            description: "Retry after CI failure.",
            status: "completed",
            class: "attempt",
            parent: Some(&first),
            minutes_ago: retry_at,
            ..Default::default()
        },
        Run::MergedPr,
    )
    .await?;
    Ok(())
}
