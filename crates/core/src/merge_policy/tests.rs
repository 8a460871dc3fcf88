use super::*;
use serde_json::json;

fn errors(v: Value) -> Vec<String> {
    validate_merge_policy(&v, "mergePolicy").unwrap_err()
}

#[test]
fn valid_policies_parse() {
    let p = validate_merge_policy(
        &json!({"tier": "agent-review", "agentReview": {"reviewerRole": "reviewer",
                "escalateToPaths": ["infra/"], "maxConfidenceThreshold": 0.7,
                "gateCondition": "approve-only"}, "stallNotifyMinutes": 45}),
        "mergePolicy",
    )
    .unwrap();
    assert_eq!(p.tier.as_str(), "agent-review");
    assert_eq!(
        p.agent_review.unwrap().gate_condition,
        Some(crate::ReviewGate::ApproveOnly)
    );
    let p = validate_merge_policy(
        &json!({"tier": "auto-threshold", "threshold": {"maxLines": 300, "denyPaths": ["secrets/"]}}),
        "gitConfig.mergePolicy",
    )
    .unwrap();
    assert_eq!(p.threshold.unwrap().deny_paths, ["secrets/"]);
}

#[test]
fn every_problem_is_named_by_its_path() {
    assert_eq!(errors(json!({})), ["mergePolicy.tier: is required"]);
    assert_eq!(
        errors(json!({"tier": "yolo"})),
        ["mergePolicy.tier: must be one of auto-threshold, agent-review, human"]
    );
    assert_eq!(
        errors(json!({"tier": "human", "colour": "red"})),
        ["mergePolicy.colour: unknown field (allowed: tier, threshold, agentReview, stallNotifyMinutes)"]
    );
    assert_eq!(
        errors(json!({"tier": "auto-threshold", "threshold": {"maxLines": -5, "denyPaths": "src/", "x": 1}})),
        [
            "mergePolicy.threshold.x: unknown field (allowed: maxLines, maxSourceLines, denyPaths)",
            "mergePolicy.threshold.maxLines: must be a positive integer",
            "mergePolicy.threshold.denyPaths: must be an array of path prefixes (non-empty strings)",
        ]
    );
    assert_eq!(
        errors(
            json!({"tier": "agent-review", "agentReview": {"maxConfidenceThreshold": 2, "gateCondition": "later"}})
        ),
        [
            "mergePolicy.agentReview.reviewerRole: is required (a role or skill slug)",
            "mergePolicy.agentReview.maxConfidenceThreshold: must be a number from 0 to 1",
            "mergePolicy.agentReview.gateCondition: must be approve-and-merge or approve-only",
        ]
    );
    assert_eq!(
        errors(json!("human")),
        ["mergePolicy: must be an object or null"]
    );
    assert_eq!(
        errors(json!({"tier": "human", "stallNotifyMinutes": 0})),
        ["mergePolicy.stallNotifyMinutes: must be a positive integer"]
    );
}

#[test]
fn resolution_order_with_reasons() {
    let mission = MergePolicy {
        tier: "agent-review".into(),
        ..MergePolicy::builtin()
    };
    let workspace = MergePolicy {
        tier: "human".into(),
        threshold: None,
        agent_review: None,
        stall_notify_minutes: None,
    };
    let r = effective_policy(true, false, Some(&mission), Some(&workspace));
    assert_eq!(
        (r.source, r.reason.as_str()),
        (
            PolicySource::TaskRequiresReview,
            "Human — this task requires review"
        )
    );
    let r = effective_policy(false, true, Some(&mission), None);
    assert_eq!(
        (r.source, r.policy.tier.as_str()),
        (PolicySource::MissionRequiresReview, "human")
    );
    assert_eq!(r.reason, "Human — this mission requires review");
    let r = effective_policy(false, false, Some(&mission), Some(&workspace));
    assert_eq!(
        (r.source, r.reason.as_str()),
        (PolicySource::Mission, "Agent review — set on this mission")
    );
    let r = effective_policy(false, false, None, Some(&workspace));
    assert_eq!(
        (r.source, r.reason.as_str()),
        (
            PolicySource::Workspace,
            "Human — inherited from the workspace default"
        )
    );
    let r = effective_policy(false, false, None, None);
    assert_eq!(r.policy, MergePolicy::builtin());
    assert_eq!(r.reason, "Auto-threshold — the built-in default");
    assert!(r.policy.may_auto_merge());
    assert!(!workspace.may_auto_merge());
}

#[test]
fn a_waiting_pr_is_due_one_stall_notice_per_quiet_spell() {
    use chrono::{Duration, TimeZone, Utc};
    let moved = Utc.with_ymd_and_hms(2026, 11, 29, 9, 0, 0).unwrap();
    let default = MergePolicy::builtin();
    assert_eq!(
        stall_notice_due(&default, moved, None, moved + Duration::minutes(29)),
        None
    );
    assert_eq!(
        stall_notice_due(&default, moved, None, moved + Duration::minutes(30)),
        Some(30)
    );
    let told = Some(moved + Duration::minutes(31));
    assert_eq!(
        stall_notice_due(&default, moved, told, moved + Duration::minutes(90)),
        None,
        "told once for this quiet spell"
    );
    let moved_again = moved + Duration::minutes(40);
    assert_eq!(
        stall_notice_due(
            &default,
            moved_again,
            told,
            moved_again + Duration::minutes(30)
        ),
        Some(30),
        "a new spell after the PR moved"
    );
    let quick = MergePolicy {
        stall_notify_minutes: Some(5),
        ..MergePolicy::human()
    };
    assert_eq!(
        stall_notice_due(&quick, moved, None, moved + Duration::minutes(6)),
        Some(6)
    );
}

#[test]
fn only_auto_threshold_has_a_size_cap_and_it_defaults() {
    assert_eq!(MergePolicy::builtin().size_cap(), Some(DEFAULT_MAX_LINES));
    let set: MergePolicy =
        serde_json::from_value(json!({"tier": "auto-threshold", "threshold": {"maxLines": 400}}))
            .unwrap();
    assert_eq!(set.size_cap(), Some(400));
    let bare: MergePolicy = serde_json::from_value(json!({"tier": "auto-threshold"})).unwrap();
    assert_eq!(bare.size_cap(), Some(DEFAULT_MAX_LINES));
    assert_eq!(MergePolicy::human().size_cap(), None);
}

#[test]
fn each_problem_carries_a_code_a_form_can_map_to_its_field() {
    let errors = check_merge_policy(
        &json!({"tier": "auto-threshold", "threshold": {"maxLines": 0},
        "agentReview": {"reviewerRole": " "}, "extra": 1}),
    )
    .unwrap_err();
    let codes: Vec<(&str, PolicyErrorCode)> =
        errors.iter().map(|e| (e.path.as_str(), e.code)).collect();
    assert_eq!(
        codes,
        [
            ("extra", PolicyErrorCode::UnknownField),
            ("threshold.maxLines", PolicyErrorCode::NotPositive),
            ("agentReview.reviewerRole", PolicyErrorCode::Required),
        ]
    );
    assert_eq!(
        errors[1].describe("gitConfig.mergePolicy"),
        "gitConfig.mergePolicy.threshold.maxLines: must be a positive integer"
    );
    assert_eq!(
        errors[1].describe(""),
        "threshold.maxLines: must be a positive integer"
    );
    let whole = check_merge_policy(&json!([])).unwrap_err();
    assert_eq!(
        whole[0].describe("mergePolicy"),
        "mergePolicy: must be an object or null"
    );
    assert_eq!(
        serde_json::to_value(&errors[1]).unwrap(),
        json!({"path": "threshold.maxLines", "code": "not_positive"})
    );
}
