//! Pull requests through their rails: opened by an agent or recorded from a worker's
//! report, evaluated against the merge policy, merged, reviewed under agent-review, and
//! noticed when they stall.

pub mod merge;
pub mod open;
pub mod rails;
pub mod record;
pub mod review;
pub mod stalls;
