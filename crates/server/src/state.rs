use crate::cache::ResponseCache;
use crate::db::Db;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub cache: ResponseCache,
    pub checkins: crate::checkins::CheckinConfig,
}
