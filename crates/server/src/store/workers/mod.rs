//! Workers: the row and its answers, the lookups, the writes of a claim and of its runner's
//! reports, and the instructions a person queues for its agent.

mod instructions;
mod reads;
mod row;
mod writes;

pub use instructions::{append_instruction, deliver_pending};
pub use reads::{find_worker, live_count, newest_of_task, of_task, waiting_of_team};
pub use row::WorkerRow;
pub use writes::{
    fail_unfinished, fail_unfinished_of_account, finish, insert, mark_pr_merged, record_session,
    record_usage, report_progress, set_milestones, set_worker_pr, Finish, NewWorker, Progress,
    Session,
};
