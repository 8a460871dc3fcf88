use crate::cache::ResponseCache;
use crate::db::Db;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub cache: ResponseCache,
    /// Each mission's task list, reused while its tasks have not moved.
    pub tasks: crate::task_memo::TaskMemo,
    pub checkins: crate::checkins::CheckinConfig,
}
