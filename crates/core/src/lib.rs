//! Buildd's REST API types, exactly as Buildd sends them, and every pure rule that the
//! dashboard and the API server share. A derived number (progress, grouping, health) is
//! computed here once so every surface shows the same value. No I/O.

// The wire: Buildd's JSON as it travels, field for field (unknown values kept).
pub mod capabilities;
pub mod client;
pub mod enums;
pub mod error;
pub mod event_stream;
pub mod mission;
pub mod pull_request;
pub mod requests;
pub mod runner;
pub mod schedule;
pub mod task;
pub mod worker;
pub mod workspace;

// The rules: what both halves derive from the wire, each in one function with its tests.
pub mod activity;
pub mod budget;
pub mod checkin;
pub mod checkin_readback;
pub mod claims;
pub mod command_center;
pub mod completion;
pub mod connect;
pub mod dependencies;
pub mod duration;
pub mod forecast;
pub mod grouping;
pub mod hosted_merge;
pub mod insights;
pub mod lifecycle;
pub mod markdown;
pub mod merge_policy;
pub mod merge_rails;
pub mod money;
pub mod note;
pub mod organizer_runs;
pub mod plan;
pub mod plan_diff;
pub mod plan_feedback;
pub mod plan_outcome;
pub mod plan_output;
pub mod plan_phase;
pub mod planning_loop;
pub mod polling;
mod present;
pub mod progress;
pub mod reconcile;
pub mod reviewer_patch;
pub mod runs;
pub mod spend;
pub mod task_groups;
pub mod task_prs;
pub mod waiting;
pub mod word_diff;

// Rules that read the server's SQLite rows (the `sql` feature, server only).
#[cfg(feature = "sql")]
pub mod migrations;
#[cfg(feature = "sql")]
pub mod pr_rails;
#[cfg(feature = "sql")]
pub mod reviewer;

#[cfg(test)]
mod test_support;

pub use enums::*;
pub use error::ApiErrorBody;
pub use mission::*;
pub use progress::{compute_progress, progress_of, MissionProgress};
pub use runner::{AccountMe, HeartbeatAnswer, OpenedPr, PrOpened, WorkerDetail, WorkspaceConfig};
pub use schedule::Schedule;
pub use task::*;
pub use worker::*;
pub use workspace::*;
