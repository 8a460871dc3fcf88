//! `/api/missions`: the list and a mission's detail, create, update and delete, and its
//! organizer runs.

mod create;
mod delete;
mod reads;
mod runs;
mod update;

pub use create::create;
pub use delete::delete;
pub use reads::{detail, list};
pub use runs::{run, runs};
pub use update::update;
