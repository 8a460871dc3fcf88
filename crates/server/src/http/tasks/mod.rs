//! `/api/tasks`: the list, create, detail, update and delete, a task's notes and steering
//! history, taking it over, and plan review.

mod create;
mod delete;
mod detail;
mod list;
mod messages;
mod notes;
mod plans;
mod reassign;
mod start;
mod update;
mod waiting;

pub use create::create;
pub use delete::delete;
pub use detail::detail;
pub use list::list;
pub use messages::messages;
pub use notes::create_note;
pub use plans::{approve_plan, reject_plan};
pub use reassign::reassign;
pub use start::start;
pub use update::update;
pub use waiting::waiting;
