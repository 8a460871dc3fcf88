//! The merge rails' decision on a PR's facts, apart from the SQL parser: CI on the head
//! commit, the file listing, the size cap, protected and escalation paths, the migration
//! verdict as given, and the tier's hold. `pr_rails` (server) classifies the migrations and
//! calls [`decide`]; the what-if replay (browser) hands it the verdict the server recorded.
//! One decision, so a replayed PR is judged exactly as the server judged it.

use crate::merge_policy::{EffectivePolicy, MergePolicy};
use crate::pull_request::{
    diff_size, head_checks, CheckOutcome, CheckRun, MigrationReport, PrEvaluation, PrFile, PrState,
    ReviewStatus, Verdict,
};
use crate::MergeTier;
use serde::{Deserialize, Serialize};

/// What a PR's merge reads of its workspace's `gitConfig`: the default policy (when it
/// reads as one), where migrations and the schema live, and whether green auto-threshold
/// PRs merge by themselves (`autoMergeOnGreenCI`, on unless turned off).
#[derive(Clone, Debug, PartialEq)]
pub struct GitMergeConfig {
    pub policy: Option<MergePolicy>,
    pub migrations_path: Option<String>,
    pub schema_file: Option<String>,
    pub auto_merge_on_green: bool,
}

impl GitMergeConfig {
    pub fn of(git: &serde_json::Value) -> Self {
        let text = |key: &str| git.get(key).and_then(|v| v.as_str()).map(str::to_string);
        Self {
            policy: git
                .get("mergePolicy")
                .and_then(|p| serde_json::from_value(p.clone()).ok()),
            migrations_path: text("migrationsPath"),
            schema_file: text("schemaFile"),
            auto_merge_on_green: git.get("autoMergeOnGreenCI").and_then(|v| v.as_bool())
                != Some(false),
        }
    }

    pub fn layout(&self) -> MigrationLayout {
        MigrationLayout::named(self.migrations_path.as_deref(), self.schema_file.as_deref())
    }
}

/// The PR's changed files: listed, or why not.
#[derive(Clone, Debug, PartialEq)]
pub enum Files {
    Listed(Vec<PrFile>),
    Missing,
    Malformed,
}

/// Where a workspace keeps its migrations and schema (`gitConfig.migrationsPath`,
/// `gitConfig.schemaFile`).
#[derive(Clone, Debug, PartialEq)]
pub struct MigrationLayout {
    pub dir: String,
    pub schema_file: String,
}

impl Default for MigrationLayout {
    fn default() -> Self {
        Self {
            dir: "migrations/".into(),
            schema_file: "schema.sql".into(),
        }
    }
}

impl MigrationLayout {
    /// The layout `gitConfig` names, each part it leaves out the default.
    pub fn named(dir: Option<&str>, schema_file: Option<&str>) -> Self {
        let defaults = Self::default();
        Self {
            dir: dir.map_or(defaults.dir, str::to_string),
            schema_file: schema_file.map_or(defaults.schema_file, str::to_string),
        }
    }

    pub fn is_migration(&self, path: &str) -> bool {
        let dir = self.dir.trim_end_matches('/');
        let inside = path.starts_with(&format!("{dir}/")) || path.contains(&format!("/{dir}/"));
        inside && path.ends_with(".sql")
    }
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

/// Which rail holds a PR: what a person would look at to let it through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rail {
    /// CI has not passed on the head commit.
    Ci,
    /// The file listing is missing or malformed.
    FileListing,
    /// The diff is over the size cap.
    Size,
    /// A file under a protected (deny) path.
    ProtectedPath,
    /// A file under an agent-review escalation path.
    EscalationPath,
    /// A CONTRACT migration.
    Migration,
    /// The human tier (or `requiresReview`): a person merges.
    Tier,
    /// The agent-review tier: the reviewer decides.
    Reviewer,
    /// The workspace turned auto-merge on green CI off.
    AutoMergeOff,
}

impl Rail {
    pub const ALL: [Rail; 9] = [
        Rail::Ci,
        Rail::FileListing,
        Rail::Size,
        Rail::ProtectedPath,
        Rail::EscalationPath,
        Rail::Migration,
        Rail::Tier,
        Rail::Reviewer,
        Rail::AutoMergeOff,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Rail::Ci => "CI",
            Rail::FileListing => "file listing",
            Rail::Size => "size cap",
            Rail::ProtectedPath => "protected path",
            Rail::EscalationPath => "escalation path",
            Rail::Migration => "migration",
            Rail::Tier => "a person merges",
            Rail::Reviewer => "agent review",
            Rail::AutoMergeOff => "auto-merge off",
        }
    }
}

/// One reason a PR is held, and its rail.
#[derive(Clone, Debug, PartialEq)]
pub struct Hold {
    pub rail: Rail,
    pub reason: String,
}

fn hold(rail: Rail, reason: String) -> Hold {
    Hold { rail, reason }
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
    let named = |outcome| {
        latest
            .iter()
            .filter(|c| c.outcome() == outcome)
            .map(|c| c.name.as_str())
            .collect::<Vec<&str>>()
    };
    let failed = named(CheckOutcome::Failed);
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
    let pending = named(CheckOutcome::Pending);
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

/// What sends a PR to a person whatever its tier or a reviewer says, and the migration
/// report to show with it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Escalations {
    pub holds: Vec<Hold>,
    pub migrations: Option<MigrationReport>,
}

/// The escalation triggers of `files` under `policy`: an unknown or malformed listing,
/// protected and escalation paths (migrations and the schema file aside: the migration
/// verdict judges them), then a CONTRACT verdict's reasons. `migrations` gives the verdict
/// of a listed PR's migrations: the classifier on the server, the recorded verdict in a
/// replay.
pub fn escalations(
    files: &Files,
    policy: &MergePolicy,
    layout: &MigrationLayout,
    migrations: impl FnOnce(&[PrFile]) -> MigrationReport,
) -> Escalations {
    let listed = match files {
        Files::Missing => "the PR's file listing could not be fetched",
        Files::Malformed => "the PR's file listing is malformed",
        Files::Listed(files) => return listed_escalations(files, policy, layout, migrations),
    };
    Escalations {
        holds: vec![hold(Rail::FileListing, listed.into())],
        migrations: None,
    }
}

fn listed_escalations(
    files: &[PrFile],
    policy: &MergePolicy,
    layout: &MigrationLayout,
    migrations: impl FnOnce(&[PrFile]) -> MigrationReport,
) -> Escalations {
    let no_paths = Vec::new();
    let deny = policy
        .threshold
        .as_ref()
        .map_or(&no_paths, |t| &t.deny_paths);
    let escalate = policy
        .agent_review
        .as_ref()
        .map_or(&no_paths, |a| &a.escalate_to_paths);
    let mut holds = Vec::new();
    let guarded = files
        .iter()
        .filter(|f| !layout.is_migration(&f.path) && !f.path.ends_with(&layout.schema_file));
    for f in guarded {
        if let Some(p) = deny.iter().find(|p| f.path.starts_with(p.as_str())) {
            holds.push(hold(
                Rail::ProtectedPath,
                format!("touches protected path {} (matched {p})", f.path),
            ));
        }
        if let Some(p) = escalate.iter().find(|p| f.path.starts_with(p.as_str())) {
            holds.push(hold(
                Rail::EscalationPath,
                format!("touches escalation path {} (matched {p})", f.path),
            ));
        }
    }
    let report = migrations(files);
    if report.verdict == Verdict::Contract {
        holds.extend(
            report
                .reasons
                .iter()
                .map(|r| hold(Rail::Migration, format!("migration: {r}"))),
        );
    }
    let shown = !report.files.is_empty() || report.verdict == Verdict::Contract;
    Escalations {
        holds,
        migrations: shown.then_some(report),
    }
}

/// A PR's evaluation, with the rail of each reason (`rails[i]` holds for `reasons[i]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub evaluation: PrEvaluation,
    pub rails: Vec<Rail>,
}

/// Decides a PR under its effective policy, given its escalation triggers: CI's reason
/// first, then the size cap, the escalations, and the tier's hold last.
pub fn decide(
    facts: &PrFacts,
    policy: &EffectivePolicy,
    auto_merge_on_green: bool,
    escalations: Escalations,
) -> Decision {
    if facts.merged || facts.closed {
        return Decision {
            evaluation: PrEvaluation {
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
            },
            rails: vec![],
        };
    }
    let why = &policy.reason;
    let policy_rules = &policy.policy;
    let mut holds = Vec::new();
    let mut state = None;
    if let Err((s, reason)) = ci(facts) {
        state = Some(s);
        holds.push(hold(Rail::Ci, reason));
    }
    if let (Files::Listed(files), Some(limit)) = (facts.files, policy_rules.size_cap()) {
        let size = diff_size(files);
        let (size, noise) = (size.counted, size.lock_files);
        if size > limit {
            holds.push(hold(
                Rail::Size,
                format!("diff size {size} lines > limit {limit} ({noise} lock files not counted)"),
            ));
        }
    }
    holds.extend(escalations.holds);
    let rails_pass = holds.is_empty();
    let ci_passed = state.is_none();
    let tier_hold = match policy_rules.tier {
        MergeTier::Human => Some((Rail::Tier, format!("{why}: a person merges this PR"))),
        MergeTier::AgentReview => Some((
            Rail::Reviewer,
            match facts.review {
                ReviewStatus::None | ReviewStatus::Pending => {
                    format!("{why}: waiting for the reviewer's verdict")
                }
                ReviewStatus::ChangesRequested => {
                    format!("{why}: the reviewer requested changes; a fix is under way")
                }
                ReviewStatus::Escalated => {
                    format!("{why}: the reviewer escalated it to a person")
                }
                ReviewStatus::Approved => {
                    format!("{why}: the reviewer approved; a person merges")
                }
                ReviewStatus::AwaitingCi => format!(
                    "{why}: the reviewer approved; the merge waits for CI on the head commit"
                ),
            },
        )),
        _ if !auto_merge_on_green => Some((
            Rail::AutoMergeOff,
            "auto-merge on green CI is off for this workspace: a person merges this PR".into(),
        )),
        _ => None,
    };
    let auto_merge = rails_pass && tier_hold.is_none();
    holds.extend(tier_hold.clone().map(|(rail, reason)| hold(rail, reason)));
    let (rails, reasons) = holds.into_iter().map(|h| (h.rail, h.reason)).unzip();
    Decision {
        evaluation: PrEvaluation {
            state: state.unwrap_or(if auto_merge {
                PrState::Ready
            } else {
                PrState::Held
            }),
            mergeable_by_person: ci_passed
                && (!policy_rules.has_reviewer()
                    || matches!(
                        facts.review,
                        ReviewStatus::Escalated | ReviewStatus::Approved
                    )),
            auto_merge,
            reasons,
            tier_hold: tier_hold.map(|(_, reason)| reason),
            migrations: escalations.migrations,
        },
        rails,
    }
}

/// The verdict of a PR with no migrations: EXPAND, nothing to show.
pub fn no_migrations() -> MigrationReport {
    MigrationReport {
        verdict: Verdict::Expand,
        reasons: vec![],
        files: vec![],
    }
}

#[cfg(test)]
mod tests;
