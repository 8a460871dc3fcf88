//! Pull requests through their rails: recorded from a worker's report, evaluated against
//! the merge policy, merged, reviewed under agent-review, and noticed when they stall.

pub mod merge;
pub mod rails;
pub mod record;
pub mod review;
pub mod stalls;
