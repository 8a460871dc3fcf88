//! Tasks: the row and its answers, the one way a task is written, its way through the
//! queue, a person's changes, its dependencies and the team's list.

pub mod activity;
mod dependencies;
mod insert;
pub mod list;
mod reads;
mod row;
mod status;
mod update;

pub use dependencies::{
    blocked_by_failure_of, dependency_graph_from, failed_dependency, known_in_workspace,
    unfinished_dependents,
};
pub use insert::{insert, insert_unless_taken, NewTask};
pub use reads::{
    child_count, children, existing_task, expired_claims, find_task, find_task_held, is_in_mission,
    open_count_in_mission, planning_in_flight, task_by_id, ChildTask,
};
pub use row::TaskRow;
pub use status::{
    cancel, claim, renew_lease, requeue, requeue_claims_of, set_outcome, terminal_statuses, Requeue,
};
pub use update::{delete, record_plan_rejection, start_now, update, Stop, TaskPatch};
