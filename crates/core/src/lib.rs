//! Buildd's REST API types, exactly as Buildd sends them, and every pure rule that the
//! dashboard and the API server share. A derived number (progress, grouping, health) is
//! computed here once so every surface shows the same value. No I/O.

pub mod budget;
pub mod capabilities;
pub mod checkin;
pub mod checkin_readback;
pub mod client;
pub mod command_center;
pub mod completion;
pub mod connect;
pub mod dependencies;
pub mod duration;
pub mod enums;
pub mod error;
pub mod event_stream;
pub mod forecast;
pub mod grouping;
pub mod lifecycle;
pub mod markdown;
pub mod merge_policy;
#[cfg(feature = "sql")]
pub mod migrations;
pub mod mission;
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
#[cfg(feature = "sql")]
pub mod pr_rails;
pub mod progress;
pub mod pull_request;
#[cfg(feature = "sql")]
pub mod reviewer;
pub mod reviewer_patch;
pub mod runner;
pub mod runs;
pub mod schedule;
pub mod spend;
pub mod task;
pub mod task_groups;
pub mod task_prs;
#[cfg(test)]
mod test_support;
pub mod word_diff;
pub mod worker;
pub mod workspace;

pub use enums::*;
pub use error::ApiErrorBody;
pub use mission::*;
pub use progress::{compute_progress, progress_of, MissionProgress};
pub use runner::{AccountMe, HeartbeatAnswer, OpenedPr, PrOpened, WorkerDetail, WorkspaceConfig};
pub use schedule::Schedule;
pub use task::*;
pub use worker::*;
pub use workspace::*;
