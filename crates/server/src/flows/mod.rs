//! The workflows that cross resources, in the caller's transaction: a worker's report, its
//! spend against the mission's budget, and what follows a task's end (outcomes → PR rails
//! and review → completion → the organizer's next run), a person's edits of missions and
//! tasks, claim leases and reassigning, posting to the feed, and the scheduler's chores.
//! They use `store` and buildd-core's rules; only `http` and the scheduler call them.

pub mod answers;
pub mod budget;
pub mod changes;
pub mod checkins;
pub mod claims;
pub mod completion;
pub mod leases;
pub mod missions;
pub mod notes;
pub mod organizer;
pub mod outcomes;
pub mod prs;
pub mod reassign;
pub mod reports;
pub mod scheduler;
pub mod task_checks;
pub mod task_edits;
