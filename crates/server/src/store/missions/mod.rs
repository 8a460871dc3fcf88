//! Missions: the row and its answer, the lookups, and every write of a mission row.

mod reads;
mod row;
mod writes;

pub use reads::{count_all, existing_mission, find_mission, mission_by_id};
pub use row::MissionRow;
pub(in crate::store) use row::MISSION_COLUMNS;
pub use writes::{
    complete, delete, exhaust, insert, release_dependents, reopen, set_budget, set_schedule,
    set_working_branch, task_started, update, MissionPatch, NewMission,
};
