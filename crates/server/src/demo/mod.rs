//! The demo: a team with half a dozen missions seeded into an empty database, and the
//! scripted worker that works its tasks over HTTP, so the dashboard moves by itself.

mod costs;
mod history;
mod loose_tasks;
mod seed;
mod seeder;
pub mod worker;

pub use seed::{dashboard_key, seed_if_empty, DEMO_TEAM};
