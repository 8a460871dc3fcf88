//! `Field`: the merge-policy form's fields, as a problem's path names them, and where each
//! one's error is shown.

use buildd_core::merge_policy::PolicyError;

/// The form's fields, as an error's path names them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Tier,
    MaxLines,
    DenyPaths,
    Reviewer,
    EscalatePaths,
    Gate,
    Stall,
}

impl Field {
    /// The field `error` is about, by its path inside the policy.
    pub(crate) fn of(error: &PolicyError) -> Option<Field> {
        Some(match error.path.as_str() {
            "tier" => Field::Tier,
            "threshold" | "threshold.maxLines" | "threshold.maxSourceLines" => Field::MaxLines,
            "threshold.denyPaths" => Field::DenyPaths,
            "agentReview" | "agentReview.reviewerRole" => Field::Reviewer,
            "agentReview.escalateToPaths" => Field::EscalatePaths,
            "agentReview.gateCondition" | "agentReview.maxConfidenceThreshold" => Field::Gate,
            "stallNotifyMinutes" => Field::Stall,
            _ => return None,
        })
    }

    /// The error's element: its test id, and the id its input's `aria-describedby` names.
    pub(crate) fn error_id(self) -> &'static str {
        match self {
            Field::Tier => "policy-error-tier",
            Field::MaxLines => "policy-error-max-lines",
            Field::DenyPaths => "policy-error-deny",
            Field::Reviewer => "policy-error-reviewer",
            Field::EscalatePaths => "policy-error-escalate",
            Field::Gate => "policy-error-gate",
            Field::Stall => "policy-error-stall",
        }
    }
}
