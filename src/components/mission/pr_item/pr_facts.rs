//! What a PR's evaluation comes to in words: its state as a chip, and its migration
//! statements' rows.

use buildd_core::pull_request::{PrState, PullRequest, StatementVerdict};

/// The state's words and the chip's tone.
pub fn state_label(state: PrState) -> (&'static str, &'static str) {
    match state {
        PrState::Merged => ("merged", "ok"),
        PrState::Closed => ("closed", "muted"),
        PrState::CiPending => ("CI pending", "info"),
        PrState::CiFailing => ("CI failing", "bad"),
        PrState::Held => ("held", "warn"),
        PrState::Ready => ("ready", "ok"),
    }
}

/// The rows of its migration verdicts: (file, statement).
pub fn statements(pr: &PullRequest) -> Vec<(String, StatementVerdict)> {
    pr.evaluation
        .migrations
        .iter()
        .flat_map(|m| m.files.iter())
        .flat_map(|f| {
            f.statements
                .iter()
                .map(move |s| (f.path.clone(), s.clone()))
        })
        .collect()
}
