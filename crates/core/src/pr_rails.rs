//! Whether a PR may merge: every safety rail that blocks gives its reason. CI must have
//! passed for the head commit (an absent check run is not a pass), the file listing must be
//! known, the diff within the size cap, no protected path touched, the migrations EXPAND; and
//! only the auto-threshold tier merges without a person or a reviewer. A person may merge
//! once CI passed: the rails that hold a PR are what they review.
//!
//! Here the migrations are classified (the SQL parser); the decision itself is
//! [`crate::merge_rails::decide`], which a what-if replay calls with a recorded verdict.

use crate::merge_policy::EffectivePolicy;
use crate::merge_rails::{decide, Escalations};
pub use crate::merge_rails::{Files, PrFacts};
use crate::migrations::{classify_pr_migrations, MigrationLayout, OpenMigration};
use crate::pull_request::MigrationReport;
pub use crate::pull_request::{CheckRun, PrEvaluation, PrFile, PrState, ReviewStatus};

pub struct RailSettings<'a> {
    pub policy: &'a EffectivePolicy,
    pub layout: &'a MigrationLayout,
    /// Other open PRs' migrations.
    pub open_migrations: &'a [OpenMigration],
    /// The workspace merges green auto-threshold PRs by itself.
    pub auto_merge_on_green: bool,
}

/// The escalation triggers with the migrations classified here, by the SQL parser.
fn classified(facts: &PrFacts, settings: &RailSettings) -> Escalations {
    crate::merge_rails::escalations(
        facts.files,
        &settings.policy.policy,
        settings.layout,
        |files| {
            classify_pr_migrations(
                files,
                settings.layout,
                settings.open_migrations,
                Some(facts.number),
            )
        },
    )
}

/// What sends a PR to a person whatever its tier or a reviewer says, taken from the file
/// list on the server: an unknown or malformed listing, protected and escalation paths, and
/// CONTRACT migrations (with the migration report, when there are migrations).
pub fn escalation_triggers(
    facts: &PrFacts,
    settings: &RailSettings,
) -> (Vec<String>, Option<MigrationReport>) {
    let found = classified(facts, settings);
    let reasons = found.holds.into_iter().map(|h| h.reason).collect();
    (reasons, found.migrations)
}

/// Evaluates a PR against its effective policy.
pub fn evaluate_pr(facts: &PrFacts, settings: &RailSettings) -> PrEvaluation {
    // A merged or closed PR is not judged: its files are not classified either.
    let found = if facts.merged || facts.closed {
        Escalations::default()
    } else {
        classified(facts, settings)
    };
    decide(facts, settings.policy, settings.auto_merge_on_green, found).evaluation
}

#[cfg(test)]
mod tests;
