//! The agent-review tier's reviewer: the answer it must give and what comes of a verdict.
//! An approval merges unattended only into this mission's integration branch, with a build
//! proof for the head commit, and only when no escalation trigger fires on the server's own
//! file list at the moment the verdict lands; anything else goes to a person.

use crate::merge_rails::ci;
use crate::pr_rails::{escalation_triggers, Files, PrFacts, PrState, RailSettings};
use crate::pull_request::CheckRun;
use crate::{CheckConclusion, PrReviewOutcome, ReviewGate};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Reviews a PR gets before requested changes go to a person instead.
pub const MAX_REVIEW_ITERATIONS: i64 = 3;
pub const VERDICTS: [&str; 3] = ["approve", "request-changes", "escalate"];
/// Check names that prove the head commit builds.
const BUILD_PROOF: [&str; 3] = ["typecheck", "build", "test"];

/// `result.structuredOutput` of a reviewer task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewerOutput {
    pub verdict: String,
    pub confidence: f64,
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escalation_reason: Option<String>,
}

/// Checks a reviewer's output; every problem is named by its path.
pub fn validate_reviewer_output(output: &Value) -> Result<ReviewerOutput, Vec<String>> {
    let Some(object) = output.as_object() else {
        return Err(vec!["structuredOutput must be an object".into()]);
    };
    let mut errors = Vec::new();
    let verdict = match object.get("verdict").and_then(Value::as_str) {
        Some(v) if VERDICTS.contains(&v) => v.to_string(),
        Some(_) => {
            errors.push(format!("verdict: must be one of {}", VERDICTS.join(", ")));
            String::new()
        }
        None => {
            errors.push("verdict: required".into());
            String::new()
        }
    };
    let confidence = match object.get("confidence").map(Value::as_f64) {
        Some(Some(c)) if (0.0..=1.0).contains(&c) => c,
        Some(_) => {
            errors.push("confidence: must be a number from 0 to 1".into());
            0.0
        }
        None => {
            errors.push("confidence: required".into());
            0.0
        }
    };
    let summary = match object.get("summary").map(Value::as_str) {
        Some(Some(s)) if !s.trim().is_empty() => s.to_string(),
        Some(_) => {
            errors.push("summary: must be a non-empty string".into());
            String::new()
        }
        None => {
            errors.push("summary: required".into());
            String::new()
        }
    };
    let mut text = |key: &str| match object.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            errors.push(format!("{key}: must be a string"));
            None
        }
    };
    let feedback = text("feedback");
    let escalation_reason = text("escalationReason");
    if errors.is_empty() {
        Ok(ReviewerOutput {
            verdict,
            confidence,
            summary,
            feedback,
            escalation_reason,
        })
    } else {
        Err(errors)
    }
}

/// What comes of a verdict.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewOutcome {
    Merge,
    /// Approved under `approve-only`, or in a workspace with auto-merge off: a person merges.
    AwaitingPerson,
    /// Approved while CI still runs on the head commit: decided again when it reports.
    AwaitingCi,
    /// A fix on the same branch, reviewed again as `next_iteration`.
    Retry {
        next_iteration: i64,
    },
    Escalate(Vec<String>),
}

impl ReviewOutcome {
    /// What is recorded with the review (see `PrReview::outcome`).
    pub fn recorded(&self) -> PrReviewOutcome {
        match self {
            Self::Merge => PrReviewOutcome::Merged,
            Self::AwaitingPerson => PrReviewOutcome::AwaitingPerson,
            Self::AwaitingCi => PrReviewOutcome::AwaitingCi,
            Self::Retry { .. } => PrReviewOutcome::Retry,
            Self::Escalate(_) => PrReviewOutcome::Escalated,
        }
    }
}

/// The PR as it is when a verdict lands.
pub struct ReviewContext<'a> {
    pub facts: &'a PrFacts<'a>,
    pub settings: &'a RailSettings<'a>,
    pub base_branch: Option<&'a str>,
    /// Branches a model approval never merges into: `main` and the workspace's target,
    /// default and production branches.
    pub protected: &'a [String],
    /// This mission's integration branch, when it has one.
    pub integration_branch: Option<&'a str>,
    /// Which review this is, from 1.
    pub iteration: i64,
}

/// Triggers that send the PR to a person however the reviewer judged it, from the server's
/// file list: also an empty list, which leaves nothing to have reviewed.
pub fn escalations(ctx: &ReviewContext) -> Vec<String> {
    let (mut reasons, _) = escalation_triggers(ctx.facts, ctx.settings);
    if matches!(ctx.facts.files, Files::Listed(f) if f.is_empty()) {
        reasons.insert(0, "the PR lists no changed files".into());
    }
    reasons
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

/// A build, test or typecheck run concluded `success` on the head commit.
fn build_proof(head: &str, checks: &[CheckRun]) -> Result<(), String> {
    let mut latest: Vec<&CheckRun> = Vec::new();
    let proves = |c: &CheckRun| {
        let name = c.name.to_lowercase();
        BUILD_PROOF.iter().any(|p| name.contains(p))
    };
    for run in checks.iter().filter(|c| c.head_sha == head && proves(c)) {
        latest.retain(|c| c.name != run.name);
        latest.push(run);
    }
    if latest.is_empty() {
        return Err(format!(
            "no build/test check reported for head commit {}: an absent check run is not a pass",
            short(head)
        ));
    }
    if latest
        .iter()
        .any(|c| c.conclusion == Some(CheckConclusion::Success))
    {
        return Ok(());
    }
    let seen: Vec<String> = latest
        .iter()
        .map(|c| {
            format!(
                "{}: {}",
                c.name,
                c.conclusion
                    .as_ref()
                    .map_or(c.status.as_str(), CheckConclusion::as_str)
            )
        })
        .collect();
    Err(format!(
        "no build/test check reached a successful conclusion: {}",
        seen.join(", ")
    ))
}

/// Where a model approval may merge: into this mission's integration branch only, never a
/// protected trunk.
pub fn branch_bound(ctx: &ReviewContext) -> Result<(), String> {
    let Some(base) = ctx.base_branch else {
        return Err("model approve: PR base ref is unknown — refusing an unattended merge".into());
    };
    if ctx.protected.iter().any(|p| p == base) {
        return Err(format!(
            "model approve: base '{base}' is a protected trunk branch — human merge required"
        ));
    }
    if ctx.integration_branch != Some(base) {
        return Err(format!(
            "model approve: base '{base}' is not this mission's integration branch — human merge required"
        ));
    }
    Ok(())
}

/// What a verdict leads to, checked against the PR as it is now.
pub fn decide_review(output: &ReviewerOutput, ctx: &ReviewContext) -> ReviewOutcome {
    match output.verdict.as_str() {
        "approve" => {
            // The server's own triggers turn an approval into an escalation, never the reverse.
            let triggers = escalations(ctx);
            if !triggers.is_empty() {
                return ReviewOutcome::Escalate(triggers);
            }
            let gate = ctx
                .settings
                .policy
                .policy
                .agent_review
                .as_ref()
                .and_then(|a| a.gate_condition.as_ref());
            // Approve-only, or a workspace where a person merges every PR.
            if gate == Some(&ReviewGate::ApproveOnly) || !ctx.settings.auto_merge_on_green {
                return ReviewOutcome::AwaitingPerson;
            }
            if let Err(bound) = branch_bound(ctx) {
                return ReviewOutcome::Escalate(vec![bound]);
            }
            let head = ctx.facts.head_sha.unwrap_or_default();
            let ran = ctx.facts.checks.iter().any(|c| c.head_sha == head);
            match ci(ctx.facts) {
                // CI still runs on this commit: the approval waits for it.
                Err((PrState::CiPending, _)) if ran => ReviewOutcome::AwaitingCi,
                Err((_, reason)) => {
                    let mut reasons: Vec<String> = build_proof(head, ctx.facts.checks)
                        .err()
                        .into_iter()
                        .collect();
                    reasons.push(reason);
                    ReviewOutcome::Escalate(reasons)
                }
                Ok(()) => match build_proof(head, ctx.facts.checks) {
                    Ok(()) => ReviewOutcome::Merge,
                    Err(proof) => ReviewOutcome::Escalate(vec![proof]),
                },
            }
        }
        "request-changes" if ctx.iteration < MAX_REVIEW_ITERATIONS => ReviewOutcome::Retry {
            next_iteration: ctx.iteration + 1,
        },
        "request-changes" => ReviewOutcome::Escalate(vec![format!(
            "the reviewer requested changes {MAX_REVIEW_ITERATIONS} times: a person decides"
        )]),
        _ => ReviewOutcome::Escalate(vec![output
            .escalation_reason
            .clone()
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| "the reviewer escalated it".into())]),
    }
}

#[cfg(test)]
mod tests;
