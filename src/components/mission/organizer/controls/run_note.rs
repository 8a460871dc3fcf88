//! What an organizer action came to, as a note: its tone, its words and a task to open.

use buildd_core::client::ClientRunOutcome;

/// The outcome of an action: tone, text, and a task to link to.
pub type Note = (&'static str, String, Option<String>);

/// What Run came to: started, already in flight, or why not.
pub fn run_note(outcome: ClientRunOutcome) -> Note {
    let task = outcome.task.map(|t| t.id);
    if outcome.skipped_blocked {
        let why = outcome
            .blocked_reason
            .unwrap_or_else(|| "it waits on another mission".into());
        ("warn", format!("Not started: {why}."), None)
    } else if outcome.skipped_pr_open {
        (
            "warn",
            "Not started: the mission's PR is still open.".into(),
            None,
        )
    } else if outcome.skipped_budget_exhausted {
        ("warn", "Not started: the budget is spent.".into(), None)
    } else if outcome.deduped {
        (
            "muted",
            "Already planning: this run is in flight.".into(),
            task,
        )
    } else {
        ("ok", "Organizer started.".into(), task)
    }
}
