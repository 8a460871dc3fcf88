//! Pull requests: the row, the lookups and writes, their CI check runs and their reviews.

mod checks;
mod reads;
mod reviews;
mod row;
mod writes;

pub use checks::{checks_of, insert_check};
pub use reads::{
    find_pr, next_number, open_pr_by_id, open_prs, other_open_prs, pr_by_id, pr_moved, quiet_prs,
    team_prs,
};
pub use reviews::{
    awaiting_ci, escalate_review, insert_review, latest_retry, live_reviews, pending_review,
    record_decision, reviews_of, AwaitingCi, PendingReview,
};
pub use row::{stored_files, PrRow};
pub use writes::{
    insert, mark_merged, record_release, set_stall_notified, update_reported, NewPr, Reported,
};
