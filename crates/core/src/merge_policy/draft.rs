//! A merge policy as a person types it in a form: text until checked, then a typed
//! [`MergePolicy`] or the problems of each field as [`PolicyError`]s, and each problem in
//! the words the form shows beside its field.

use super::{
    check_merge_policy, AgentReview, MergePolicy, PolicyError, PolicyErrorCode, Threshold,
};
use crate::{MergeTier, ReviewGate};

/// The form's fields as typed. Numbers and lists stay text until [`PolicyDraft::to_policy`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PolicyDraft {
    /// Inherit the policy from above (sends `null`).
    pub inherit: bool,
    pub tier: MergeTier,
    pub max_lines: String,
    /// One path prefix a line (commas also separate).
    pub deny_paths: String,
    pub reviewer_role: String,
    pub gate_condition: ReviewGate,
    pub escalate_paths: String,
    pub stall_minutes: String,
}

impl PolicyDraft {
    /// The form opened on `policy`, or on inherit when there is none.
    pub fn from(policy: Option<&MergePolicy>) -> Self {
        let Some(p) = policy else {
            return Self {
                inherit: true,
                tier: MergeTier::AutoThreshold,
                gate_condition: ReviewGate::ApproveAndMerge,
                ..Default::default()
            };
        };
        let threshold = p.threshold.as_ref();
        let review = p.agent_review.as_ref();
        let number = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
        Self {
            inherit: false,
            tier: p.tier.clone(),
            max_lines: number(threshold.and_then(|t| t.max_lines)),
            deny_paths: threshold
                .map(|t| t.deny_paths.join("\n"))
                .unwrap_or_default(),
            reviewer_role: review.map(|r| r.reviewer_role.clone()).unwrap_or_default(),
            gate_condition: review
                .and_then(|r| r.gate_condition.clone())
                .unwrap_or(ReviewGate::ApproveAndMerge),
            escalate_paths: review
                .map(|r| r.escalate_to_paths.join("\n"))
                .unwrap_or_default(),
            stall_minutes: number(p.stall_notify_minutes),
        }
    }

    /// The policy this draft saves (`None`: inherit), or every problem, each at its path
    /// inside the policy. The tier's own fields only: a threshold for auto-threshold, a
    /// review for agent-review.
    pub fn to_policy(&self) -> Result<Option<MergePolicy>, Vec<PolicyError>> {
        if self.inherit {
            return Ok(None);
        }
        let mut errors = Vec::new();
        let mut number = |text: &str, path: &str| -> Option<i64> {
            let text = text.trim();
            if text.is_empty() {
                return None;
            }
            match text.parse::<i64>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    errors.push(PolicyError {
                        path: path.into(),
                        code: PolicyErrorCode::NotPositive,
                        allowed: vec![],
                    });
                    None
                }
            }
        };
        let max_lines = number(&self.max_lines, "threshold.maxLines");
        let stall_notify_minutes = number(&self.stall_minutes, "stallNotifyMinutes");
        let threshold = (self.tier == MergeTier::AutoThreshold)
            .then(|| Threshold {
                max_lines,
                max_source_lines: None,
                deny_paths: lines(&self.deny_paths),
            })
            .filter(|t| t.max_lines.is_some() || !t.deny_paths.is_empty());
        let agent_review = (self.tier == MergeTier::AgentReview).then(|| AgentReview {
            reviewer_role: self.reviewer_role.trim().to_string(),
            escalate_to_paths: lines(&self.escalate_paths),
            max_confidence_threshold: None,
            gate_condition: Some(self.gate_condition.clone()),
        });
        let policy = MergePolicy {
            tier: self.tier.clone(),
            threshold,
            agent_review,
            stall_notify_minutes,
        };
        // The rest (a tier, a reviewer's role, a gate) by the rule the server applies.
        let value = serde_json::to_value(&policy).unwrap_or_default();
        if let Err(more) = check_merge_policy(&value) {
            errors.extend(more);
        }
        if errors.is_empty() {
            Ok(Some(policy))
        } else {
            Err(errors)
        }
    }
}

fn lines(text: &str) -> Vec<String> {
    text.split(['\n', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect()
}

impl PolicyError {
    /// The problem as the person at the form reads it beside its field.
    pub fn in_words(&self) -> String {
        use PolicyErrorCode::*;
        match self.code {
            NotPositive => "Enter a whole number above 0.".into(),
            Required if self.path == "agentReview.reviewerRole" => {
                "Name the reviewer's role or skill, such as reviewer.".into()
            }
            NotPaths => "Enter one path prefix per line.".into(),
            UnknownTier | Required if self.path == "tier" => "Choose a tier.".into(),
            UnknownGate => "Choose when the reviewer's approval merges.".into(),
            OutOfRange => "Enter a number from 0 to 1.".into(),
            _ => {
                let mut m = self.message();
                if let Some(first) = m.get(..1) {
                    let upper = first.to_uppercase();
                    m.replace_range(..1, &upper);
                }
                m.push('.');
                m
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft(tier: &str) -> PolicyDraft {
        PolicyDraft {
            tier: tier.into(),
            gate_condition: ReviewGate::ApproveAndMerge,
            ..Default::default()
        }
    }

    fn codes(d: &PolicyDraft) -> Vec<(String, PolicyErrorCode)> {
        d.to_policy()
            .unwrap_err()
            .into_iter()
            .map(|e| (e.path, e.code))
            .collect()
    }

    #[test]
    fn inherit_saves_null_and_a_policy_reads_back_as_typed() {
        let inherit = PolicyDraft::from(None);
        assert!(inherit.inherit);
        assert_eq!(inherit.to_policy(), Ok(None));
        let policy: MergePolicy = serde_json::from_value(json!({"tier": "agent-review",
            "agentReview": {"reviewerRole": "reviewer", "escalateToPaths": ["infra/", "db/"],
            "gateCondition": "approve-only"}, "stallNotifyMinutes": 45}))
        .unwrap();
        let d = PolicyDraft::from(Some(&policy));
        assert_eq!(d.escalate_paths, "infra/\ndb/");
        assert_eq!(d.to_policy(), Ok(Some(policy)));
    }

    #[test]
    fn a_threshold_is_sent_typed_and_only_for_its_tier() {
        let mut d = draft("auto-threshold");
        d.max_lines = " 300 ".into();
        d.deny_paths = "secrets/, infra/\n\n".into();
        d.reviewer_role = "left over".into();
        let p = d.to_policy().unwrap().unwrap();
        assert_eq!(
            serde_json::to_value(&p).unwrap(),
            json!({"tier": "auto-threshold", "threshold": {"maxLines": 300,
                   "denyPaths": ["secrets/", "infra/"]}})
        );
        d.max_lines.clear();
        d.deny_paths.clear();
        assert_eq!(d.to_policy().unwrap().unwrap().threshold, None);
    }

    #[test]
    fn each_problem_is_named_by_its_path_and_code() {
        let mut d = draft("auto-threshold");
        d.max_lines = "lots".into();
        d.stall_minutes = "0".into();
        assert_eq!(
            codes(&d),
            [
                ("threshold.maxLines".into(), PolicyErrorCode::NotPositive),
                ("stallNotifyMinutes".into(), PolicyErrorCode::NotPositive)
            ]
        );
        let review = draft("agent-review");
        assert_eq!(
            codes(&review),
            [("agentReview.reviewerRole".into(), PolicyErrorCode::Required)]
        );
        assert_eq!(
            codes(&draft("sometimes")),
            [("tier".into(), PolicyErrorCode::UnknownTier)]
        );
    }

    #[test]
    fn the_words_follow_the_code_not_the_message() {
        let error = |path: &str, code| PolicyError {
            path: path.into(),
            code,
            allowed: vec![],
        };
        assert_eq!(
            error("threshold.maxLines", PolicyErrorCode::NotPositive).in_words(),
            "Enter a whole number above 0."
        );
        assert_eq!(
            error("agentReview.reviewerRole", PolicyErrorCode::Required).in_words(),
            "Name the reviewer's role or skill, such as reviewer."
        );
        assert_eq!(
            error("tier", PolicyErrorCode::UnknownTier).in_words(),
            "Choose a tier."
        );
        assert_eq!(
            error("threshold.denyPaths", PolicyErrorCode::NotPaths).in_words(),
            "Enter one path prefix per line."
        );
        let unknown = PolicyError {
            path: "threshold.size".into(),
            code: PolicyErrorCode::UnknownField,
            allowed: vec!["maxLines".into()],
        };
        assert_eq!(unknown.in_words(), "Unknown field (allowed: maxLines).");
    }
}
