//! The scheduler: the periodic work of the server — due check-ins, PR stall notices,
//! claims whose runner went quiet, pruning the task change log — in one loop. Each chore is
//! also callable on its own, at a given time, which is how tests drive it.

pub use super::checkins::{check_in, tick};
pub use super::leases::{release_expired, CLAIM_TTL_MINUTES};
pub use super::prs::stalls::notify_stalls;
pub use crate::store::task_memo::prune_log_keeping;

use crate::config::CheckinConfig;
use crate::db::Db;
use crate::store::task_memo::prune_log;
use chrono::{Duration, Utc};

/// Runs due check-ins forever, with the other periodic chores (PR stall notices, expired
/// claims, pruning the task change log), looking several times per interval.
pub async fn run(db: Db, config: CheckinConfig) {
    let every = (config.interval / 4)
        .clamp(Duration::seconds(1), Duration::seconds(30))
        .to_std()
        .unwrap_or(std::time::Duration::from_secs(30));
    let mut leader = db.chore_leader();
    loop {
        if !leader.leads().await {
            // Another server runs the chores; this one asks again at the next turn.
            tokio::time::sleep(every).await;
            continue;
        }
        if let Err(e) = tick(&db, Utc::now(), &config).await {
            tracing::warn!("check-ins: {e:?}");
        }
        if let Err(e) = notify_stalls(&db, Utc::now()).await {
            tracing::warn!("stall notices: {e:?}");
        }
        if let Err(e) = release_expired(&db, Utc::now()).await {
            tracing::warn!("expired claims: {e:?}");
        }
        if let Err(e) = prune_log(&db).await {
            tracing::warn!("task change log: {e:?}");
        }
        tokio::time::sleep(every).await;
    }
}
