//! Rows and lookups: each table's row type, its columns, and the reads and writes of one
//! resource, plus the reports the pages read (a mission's list and detail, its runs). Every
//! SQL statement the server runs, but its migrations, is here. It uses only `db`, `error`,
//! `time`, `config` and buildd-core; the workflows in `flows` and the handlers in `http`
//! build on it.

pub mod accounts;
pub mod checkins;
pub mod claim_queue;
pub mod generation;
pub mod insights;
mod json_text;
pub mod mission_runs;
pub mod mission_tasks;
pub mod mission_views;
pub mod missions;
pub mod notes;
pub mod prs;
pub mod recorded_prs;
pub mod schedules;
pub mod task_memo;
pub mod tasks;
pub mod team_changes;
pub mod turns;
pub mod workers;
pub mod workspaces;
