//! Merge policy: how a PR merges (auto-threshold, agent-review, human), checked strictly,
//! and resolved for a task with the reason it applies.

use crate::{MergeTier, ReviewGate};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The built-in policy's tier, where a form starts.
impl Default for MergeTier {
    fn default() -> Self {
        MergeTier::AutoThreshold
    }
}

/// Buildd's default: the reviewer's approval merges.
impl Default for ReviewGate {
    fn default() -> Self {
        ReviewGate::ApproveAndMerge
    }
}

/// The size cap of the built-in default policy, in changed lines.
pub const DEFAULT_MAX_LINES: i64 = 800;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Threshold {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_lines: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_source_lines: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny_paths: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentReview {
    pub reviewer_role: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub escalate_to_paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_confidence_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate_condition: Option<ReviewGate>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MergePolicy {
    pub tier: MergeTier,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<Threshold>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_review: Option<AgentReview>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stall_notify_minutes: Option<i64>,
}

impl MergePolicy {
    /// `{tier: "auto-threshold", threshold: {maxLines: 800}}`.
    pub fn builtin() -> Self {
        Self {
            tier: MergeTier::AutoThreshold,
            threshold: Some(Threshold {
                max_lines: Some(DEFAULT_MAX_LINES),
                max_source_lines: None,
                deny_paths: vec![],
            }),
            agent_review: None,
            stall_notify_minutes: None,
        }
    }

    fn human() -> Self {
        Self {
            tier: MergeTier::Human,
            threshold: None,
            agent_review: None,
            stall_notify_minutes: None,
        }
    }

    /// Only auto-threshold merges without a person or a reviewer.
    pub fn may_auto_merge(&self) -> bool {
        self.tier == MergeTier::AutoThreshold
    }

    /// Under agent-review a reviewer task judges each head commit before anyone merges.
    pub fn has_reviewer(&self) -> bool {
        self.tier == MergeTier::AgentReview
    }

    /// The most changed lines (lock files not counted) a PR may have and still merge by
    /// itself: auto-threshold's `maxLines`, else the default; other tiers have no cap.
    pub fn size_cap(&self) -> Option<i64> {
        self.may_auto_merge().then(|| {
            self.threshold
                .as_ref()
                .and_then(|t| t.max_lines)
                .unwrap_or(DEFAULT_MAX_LINES)
        })
    }
}

/// What is wrong with one field of a merge policy, as a code the dashboard's form maps to
/// its own words (never by matching the English).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyErrorCode {
    /// A field the policy does not have.
    UnknownField,
    /// A field the policy needs (the tier, a reviewer's role).
    Required,
    /// Not one of the tiers.
    UnknownTier,
    /// Not an object where one is expected (the policy, its threshold, its review).
    NotAnObject,
    /// Not a whole number above 0.
    NotPositive,
    /// Not an array of non-empty path prefixes.
    NotPaths,
    /// A confidence outside 0 to 1.
    OutOfRange,
    /// Neither gate condition.
    UnknownGate,
}

/// One problem of a merge policy: the field's path inside the policy (`threshold.maxLines`;
/// empty for the policy itself) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyError {
    pub path: String,
    pub code: PolicyErrorCode,
    /// For an unknown field: the fields allowed where it stands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<String>,
}

impl PolicyError {
    /// The problem in words, without its path.
    pub fn message(&self) -> String {
        use PolicyErrorCode::*;
        match self.code {
            UnknownField => format!("unknown field (allowed: {})", self.allowed.join(", ")),
            Required if self.path == "agentReview.reviewerRole" => {
                "is required (a role or skill slug)".into()
            }
            Required => "is required".into(),
            UnknownTier => format!("must be one of {}", MergeTier::list()),
            NotAnObject if self.path.is_empty() => "must be an object or null".into(),
            NotAnObject => "must be an object".into(),
            NotPositive => "must be a positive integer".into(),
            NotPaths => "must be an array of path prefixes (non-empty strings)".into(),
            OutOfRange => "must be a number from 0 to 1".into(),
            UnknownGate => "must be approve-and-merge or approve-only".into(),
        }
    }

    /// The problem as the API states it, the path under `prefix` (`mergePolicy`,
    /// `gitConfig.mergePolicy`): `mergePolicy.threshold.maxLines: must be a positive integer`.
    pub fn describe(&self, prefix: &str) -> String {
        format!("{}: {}", self.field(prefix), self.message())
    }

    /// The field's full path under `prefix`: `mergePolicy.threshold.maxLines`.
    pub fn field(&self, prefix: &str) -> String {
        match (prefix.is_empty(), self.path.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => self.path.clone(),
            (false, false) => format!("{prefix}.{}", self.path),
        }
    }
}

struct Checker {
    errors: Vec<PolicyError>,
}

impl Checker {
    fn err(&mut self, path: &str, code: PolicyErrorCode) {
        self.errors.push(PolicyError {
            path: path.to_string(),
            code,
            allowed: vec![],
        });
    }

    fn strict(&mut self, object: &Map<String, Value>, path: &str, allowed: &[&str]) {
        for key in object.keys().filter(|k| !allowed.contains(&k.as_str())) {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            self.errors.push(PolicyError {
                path: at,
                code: PolicyErrorCode::UnknownField,
                allowed: allowed.iter().map(|a| a.to_string()).collect(),
            });
        }
    }

    fn positive(&mut self, object: &Map<String, Value>, path: &str, key: &str) {
        if let Some(v) = object.get(key) {
            if v.as_i64().is_none_or(|n| n <= 0) {
                self.err(&format!("{path}{key}"), PolicyErrorCode::NotPositive);
            }
        }
    }

    fn paths(&mut self, object: &Map<String, Value>, path: &str, key: &str) {
        if let Some(v) = object.get(key) {
            let ok = v.as_array().is_some_and(|a| {
                a.iter()
                    .all(|p| p.as_str().is_some_and(|s| !s.trim().is_empty()))
            });
            if !ok {
                self.err(&format!("{path}{key}"), PolicyErrorCode::NotPaths);
            }
        }
    }
}

/// Checks a merge policy strictly: unknown fields, wrong types and out-of-range numbers are
/// refused, each named by its path and a code.
pub fn check_merge_policy(value: &Value) -> Result<MergePolicy, Vec<PolicyError>> {
    use PolicyErrorCode::*;
    let mut c = Checker { errors: Vec::new() };
    let Some(object) = value.as_object() else {
        c.err("", NotAnObject);
        return Err(c.errors);
    };
    c.strict(
        object,
        "",
        &["tier", "threshold", "agentReview", "stallNotifyMinutes"],
    );
    match object.get("tier").and_then(Value::as_str) {
        Some(t) if MergeTier::known(t).is_some() => {}
        Some(_) | None if object.contains_key("tier") => c.err("tier", UnknownTier),
        _ => c.err("tier", Required),
    }
    match object.get("threshold") {
        None => {}
        Some(Value::Object(t)) => {
            c.strict(t, "threshold", &["maxLines", "maxSourceLines", "denyPaths"]);
            c.positive(t, "threshold.", "maxLines");
            c.positive(t, "threshold.", "maxSourceLines");
            c.paths(t, "threshold.", "denyPaths");
        }
        Some(_) => c.err("threshold", NotAnObject),
    }
    match object.get("agentReview") {
        None => {}
        Some(Value::Object(a)) => {
            c.strict(
                a,
                "agentReview",
                &[
                    "reviewerRole",
                    "escalateToPaths",
                    "maxConfidenceThreshold",
                    "gateCondition",
                ],
            );
            match a.get("reviewerRole").and_then(Value::as_str) {
                Some(r) if !r.trim().is_empty() => {}
                _ => c.err("agentReview.reviewerRole", Required),
            }
            c.paths(a, "agentReview.", "escalateToPaths");
            if let Some(v) = a.get("maxConfidenceThreshold") {
                if !v.as_f64().is_some_and(|n| (0.0..=1.0).contains(&n)) {
                    c.err("agentReview.maxConfidenceThreshold", OutOfRange);
                }
            }
            if let Some(v) = a.get("gateCondition") {
                if v.as_str().is_none_or(|g| ReviewGate::known(g).is_none()) {
                    c.err("agentReview.gateCondition", UnknownGate);
                }
            }
        }
        Some(_) => c.err("agentReview", NotAnObject),
    }
    c.positive(object, "", "stallNotifyMinutes");
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    // Every field was checked above, so the policy reads.
    serde_json::from_value(value.clone()).map_err(|_| {
        vec![PolicyError {
            path: String::new(),
            code: NotAnObject,
            allowed: vec![],
        }]
    })
}

/// [`check_merge_policy`], each problem stated with its path under `prefix` (`mergePolicy`
/// or `gitConfig.mergePolicy`), as the API's refusals say them.
pub fn validate_merge_policy(value: &Value, prefix: &str) -> Result<MergePolicy, Vec<String>> {
    check_merge_policy(value).map_err(|errors| errors.iter().map(|e| e.describe(prefix)).collect())
}

/// Where the effective policy comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicySource {
    TaskRequiresReview,
    MissionRequiresReview,
    Mission,
    Workspace,
    Default,
}

/// The policy that applies, where it comes from, and why, in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectivePolicy {
    pub policy: MergePolicy,
    pub source: PolicySource,
    pub reason: String,
}

fn tier_name(tier: &MergeTier) -> &'static str {
    match tier {
        MergeTier::Human => "Human",
        MergeTier::AgentReview => "Agent review",
        _ => "Auto-threshold",
    }
}

/// Resolves the merge policy: task `requiresReview` > mission `requiresReview` > the
/// mission's policy > the workspace default > the built-in default.
pub fn effective_policy(
    task_requires_review: bool,
    mission_requires_review: bool,
    mission: Option<&MergePolicy>,
    workspace: Option<&MergePolicy>,
) -> EffectivePolicy {
    let (policy, source, why) = if task_requires_review {
        (
            MergePolicy::human(),
            PolicySource::TaskRequiresReview,
            "this task requires review".to_string(),
        )
    } else if mission_requires_review {
        (
            MergePolicy::human(),
            PolicySource::MissionRequiresReview,
            "this mission requires review".to_string(),
        )
    } else if let Some(p) = mission {
        (
            p.clone(),
            PolicySource::Mission,
            "set on this mission".to_string(),
        )
    } else if let Some(p) = workspace {
        (
            p.clone(),
            PolicySource::Workspace,
            "inherited from the workspace default".to_string(),
        )
    } else {
        (
            MergePolicy::builtin(),
            PolicySource::Default,
            "the built-in default".to_string(),
        )
    };
    EffectivePolicy {
        reason: format!("{} — {why}", tier_name(&policy.tier)),
        policy,
        source,
    }
}

/// Minutes a waiting PR sits before its mission is told, unless the policy says otherwise.
pub const DEFAULT_STALL_NOTIFY_MINUTES: i64 = 30;

/// Whether a PR idle since `last_activity` is due a stall notice at `now`: it has waited the
/// policy's `stallNotifyMinutes` and nobody was told since it last moved. Returns the
/// minutes it has waited.
pub fn stall_notice_due(
    policy: &MergePolicy,
    last_activity: chrono::DateTime<chrono::Utc>,
    notified_at: Option<chrono::DateTime<chrono::Utc>>,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<i64> {
    let limit = policy
        .stall_notify_minutes
        .unwrap_or(DEFAULT_STALL_NOTIFY_MINUTES);
    let waited = (now - last_activity).num_minutes();
    let told = notified_at.is_some_and(|t| t >= last_activity);
    (waited >= limit && !told).then_some(waited)
}

mod draft;
pub use draft::PolicyDraft;

#[cfg(test)]
mod tests;
