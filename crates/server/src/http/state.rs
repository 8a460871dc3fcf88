//! What every handler shares.

use super::cache::ResponseCache;
use super::keys::KeyCache;
use crate::config::CheckinConfig;
use crate::db::Db;
use crate::flows::changes::ChangeFeed;
use crate::store::task_memo::TaskMemo;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub cache: ResponseCache,
    /// The accounts of keys used lately.
    pub keys: KeyCache,
    /// Each mission's task list, reused while its tasks have not moved.
    pub tasks: TaskMemo,
    pub checkins: CheckinConfig,
    /// What the change stream watches.
    pub changes: ChangeFeed,
}
