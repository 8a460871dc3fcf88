//! `/api/workers`: the worker protocol of Buildd's runner — claims, heartbeats, a worker's
//! reports and reconcile — and the instructions a person sends an agent.

mod claim;
mod instruct;
mod pr_report;
mod respond;
mod runners;
mod update;

pub use claim::claim;
pub use instruct::instruct;
pub use respond::respond;
pub use runners::{detail, heartbeat};
pub use update::update;
