//! Whether a PR may merge: every safety rail that blocks gives its reason. CI must have
//! passed for the head commit (an absent check run is not a pass), the file listing must be
//! known, the diff within the size cap, no protected path touched, the migrations EXPAND; and
//! only the auto-threshold tier merges without a person or a reviewer. A person may merge
//! once CI passed: the rails that hold a PR are what they review.

use crate::merge_policy::EffectivePolicy;
use crate::migrations::{classify_pr_migrations, MigrationLayout, OpenMigration, Verdict};
use crate::pull_request::{diff_size, head_checks, CheckOutcome, MigrationReport};
pub use crate::pull_request::{CheckRun, PrEvaluation, PrFile, PrState, ReviewStatus};

/// The PR's changed files: listed, or why not.
#[derive(Clone, Debug, PartialEq)]
pub enum Files {
    Listed(Vec<PrFile>),
    Missing,
    Malformed,
}

pub struct PrFacts<'a> {
    pub number: i64,
    pub head_sha: Option<&'a str>,
    pub files: &'a Files,
    /// Every check run reported, oldest first.
    pub checks: &'a [CheckRun],
    pub merged: bool,
    pub closed: bool,
    /// Where the agent-review tier's reviewer stands on the head commit.
    pub review: ReviewStatus,
}

pub struct RailSettings<'a> {
    pub policy: &'a EffectivePolicy,
    pub layout: &'a MigrationLayout,
    /// Other open PRs' migrations.
    pub open_migrations: &'a [OpenMigration],
    /// The workspace merges green auto-threshold PRs by itself.
    pub auto_merge_on_green: bool,
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

/// The CI verdict for the head commit: `Ok` when every latest check run per name succeeded.
pub(crate) fn ci(facts: &PrFacts) -> Result<(), (PrState, String)> {
    let Some(head) = facts.head_sha else {
        return Err((
            PrState::CiPending,
            "the PR's head commit is not known".into(),
        ));
    };
    let latest = head_checks(facts.checks, head);
    if latest.is_empty() {
        return Err((
            PrState::CiPending,
            format!("no CI check run reported for head commit {}", short(head)),
        ));
    }
    let failed: Vec<&str> = latest
        .iter()
        .filter(|c| c.outcome() == CheckOutcome::Failed)
        .map(|c| c.name.as_str())
        .collect();
    if !failed.is_empty() {
        return Err((
            PrState::CiFailing,
            format!(
                "CI checks failed for {}: {}",
                short(head),
                failed.join(", ")
            ),
        ));
    }
    let pending: Vec<&str> = latest
        .iter()
        .filter(|c| c.outcome() == CheckOutcome::Pending)
        .map(|c| c.name.as_str())
        .collect();
    if !pending.is_empty() {
        return Err((
            PrState::CiPending,
            format!(
                "CI checks still pending for {}: {}",
                short(head),
                pending.join(", ")
            ),
        ));
    }
    Ok(())
}

/// What sends a PR to a person whatever its tier or a reviewer says, taken from the file
/// list on the server: an unknown or malformed listing, protected and escalation paths, and
/// CONTRACT migrations (with the migration report, when there are migrations).
pub fn escalation_triggers(
    facts: &PrFacts,
    settings: &RailSettings,
) -> (Vec<String>, Option<MigrationReport>) {
    let policy = &settings.policy.policy;
    let mut reasons = Vec::new();
    let mut migrations = None;
    match facts.files {
        Files::Missing => reasons.push("the PR's file listing could not be fetched".into()),
        Files::Malformed => reasons.push("the PR's file listing is malformed".into()),
        Files::Listed(files) => {
            let guarded: Vec<&PrFile> = files
                .iter()
                .filter(|f| {
                    !settings.layout.is_migration(&f.path)
                        && !f.path.ends_with(&settings.layout.schema_file)
                })
                .collect();
            let deny = policy
                .threshold
                .as_ref()
                .map(|t| t.deny_paths.clone())
                .unwrap_or_default();
            let escalate = policy
                .agent_review
                .as_ref()
                .map(|a| a.escalate_to_paths.clone())
                .unwrap_or_default();
            for f in &guarded {
                if let Some(p) = deny.iter().find(|p| f.path.starts_with(p.as_str())) {
                    reasons.push(format!("touches protected path {} (matched {p})", f.path));
                }
                if let Some(p) = escalate.iter().find(|p| f.path.starts_with(p.as_str())) {
                    reasons.push(format!("touches escalation path {} (matched {p})", f.path));
                }
            }
            let report = classify_pr_migrations(
                files,
                settings.layout,
                settings.open_migrations,
                Some(facts.number),
            );
            if report.verdict == Verdict::Contract {
                reasons.extend(report.reasons.iter().map(|r| format!("migration: {r}")));
            }
            if !report.files.is_empty() || report.verdict == Verdict::Contract {
                migrations = Some(report);
            }
        }
    }
    (reasons, migrations)
}

/// Evaluates a PR against its effective policy.
pub fn evaluate_pr(facts: &PrFacts, settings: &RailSettings) -> PrEvaluation {
    if facts.merged || facts.closed {
        return PrEvaluation {
            state: if facts.merged {
                PrState::Merged
            } else {
                PrState::Closed
            },
            reasons: vec![],
            mergeable_by_person: false,
            auto_merge: false,
            tier_hold: None,
            migrations: None,
        };
    }
    let policy = &settings.policy.policy;
    let mut reasons = Vec::new();
    let mut state = None;
    if let Err((s, reason)) = ci(facts) {
        state = Some(s);
        reasons.push(reason);
    }
    let (escalations, migrations) = escalation_triggers(facts, settings);
    if let (Files::Listed(files), Some(limit)) = (facts.files, policy.size_cap()) {
        let size = diff_size(files);
        let (size, noise) = (size.counted, size.lock_files);
        if size > limit {
            reasons.push(format!(
                "diff size {size} lines > limit {limit} ({noise} lock files not counted)"
            ));
        }
    }
    reasons.extend(escalations);
    let rails_pass = reasons.is_empty();
    let ci_passed = state.is_none();
    let why = &settings.policy.reason;
    let tier_hold = match policy.tier.as_str() {
        "human" => Some(format!("{why}: a person merges this PR")),
        "agent-review" => Some(match facts.review {
            ReviewStatus::None | ReviewStatus::Pending => {
                format!("{why}: waiting for the reviewer's verdict")
            }
            ReviewStatus::ChangesRequested => {
                format!("{why}: the reviewer requested changes; a fix is under way")
            }
            ReviewStatus::Escalated => format!("{why}: the reviewer escalated it to a person"),
            ReviewStatus::Approved => format!("{why}: the reviewer approved; a person merges"),
            ReviewStatus::AwaitingCi => {
                format!("{why}: the reviewer approved; the merge waits for CI on the head commit")
            }
        }),
        _ if !settings.auto_merge_on_green => {
            Some("auto-merge on green CI is off for this workspace: a person merges this PR".into())
        }
        _ => None,
    };
    let auto_merge = rails_pass && tier_hold.is_none();
    reasons.extend(tier_hold.clone());
    PrEvaluation {
        state: state.unwrap_or(if auto_merge {
            PrState::Ready
        } else {
            PrState::Held
        }),
        mergeable_by_person: ci_passed
            && (policy.tier != "agent-review"
                || matches!(
                    facts.review,
                    ReviewStatus::Escalated | ReviewStatus::Approved
                )),
        auto_merge,
        reasons,
        tier_hold,
        migrations,
    }
}

#[cfg(test)]
mod tests;
