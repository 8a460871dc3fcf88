use super::*;
use crate::merge_policy::{effective_policy, AgentReview, EffectivePolicy, MergePolicy};
use crate::migrations::MigrationLayout;
use crate::pull_request::{PrFile, ReviewStatus};
use serde_json::json;

const HEAD: &str = "abc1234def";

fn check(name: &str, sha: &str, conclusion: &str) -> CheckRun {
    CheckRun {
        name: name.into(),
        head_sha: sha.into(),
        status: "completed".into(),
        conclusion: Some(conclusion.into()),
        details_url: None,
    }
}

fn file(path: &str, patch: &str) -> PrFile {
    PrFile {
        path: path.into(),
        status: "added".into(),
        additions: 1,
        deletions: 0,
        patch: Some(patch.into()),
    }
}

fn policy(gate: Option<&str>, escalate: &[&str]) -> EffectivePolicy {
    let p = MergePolicy {
        tier: "agent-review".into(),
        threshold: None,
        agent_review: Some(AgentReview {
            reviewer_role: "reviewer".into(),
            escalate_to_paths: escalate.iter().map(|s| s.to_string()).collect(),
            max_confidence_threshold: None,
            gate_condition: gate.map(Into::into),
        }),
        stall_notify_minutes: None,
    };
    effective_policy(false, false, Some(&p), None)
}

fn output(verdict: &str) -> ReviewerOutput {
    ReviewerOutput {
        verdict: verdict.into(),
        confidence: 0.9,
        summary: "Looks right.".into(),
        feedback: Some("Handle the empty case.".into()),
        escalation_reason: None,
    }
}

struct Pr {
    files: Files,
    checks: Vec<CheckRun>,
    base: Option<&'static str>,
    integration: Option<&'static str>,
    policy: EffectivePolicy,
    iteration: i64,
    auto_merge_on_green: bool,
}

impl Pr {
    fn approvable() -> Self {
        Self {
            files: Files::Listed(vec![file("src/lib.rs", "+fn a() {}")]),
            checks: vec![check("test", HEAD, "success")],
            base: Some("mission/rate-limits"),
            integration: Some("mission/rate-limits"),
            policy: policy(None, &[]),
            iteration: 1,
            auto_merge_on_green: true,
        }
    }

    fn decide(&self, verdict: &ReviewerOutput) -> ReviewOutcome {
        let layout = MigrationLayout::default();
        let facts = PrFacts {
            number: 7,
            head_sha: Some(HEAD),
            files: &self.files,
            checks: &self.checks,
            merged: false,
            closed: false,
            review: ReviewStatus::Pending,
        };
        let settings = RailSettings {
            policy: &self.policy,
            layout: &layout,
            open_migrations: &[],
            auto_merge_on_green: self.auto_merge_on_green,
        };
        let protected = vec!["main".to_string(), "release".to_string()];
        decide_review(
            verdict,
            &ReviewContext {
                facts: &facts,
                settings: &settings,
                base_branch: self.base,
                protected: &protected,
                integration_branch: self.integration,
                iteration: self.iteration,
            },
        )
    }
}

#[test]
fn the_reviewer_output_is_checked_field_by_field() {
    let ok = validate_reviewer_output(&json!({"verdict": "request-changes", "confidence": 0.4,
        "summary": "Two issues.", "feedback": "Fix src/a.rs:3"}))
    .unwrap();
    assert_eq!(ok.feedback.as_deref(), Some("Fix src/a.rs:3"));
    assert_eq!(
        validate_reviewer_output(&json!({"verdict": "lgtm", "confidence": 2, "feedback": 3}))
            .unwrap_err(),
        [
            "verdict: must be one of approve, request-changes, escalate",
            "confidence: must be a number from 0 to 1",
            "summary: required",
            "feedback: must be a string"
        ]
    );
    assert_eq!(
        validate_reviewer_output(&json!("approve")).unwrap_err(),
        ["structuredOutput must be an object"]
    );
}

#[test]
fn an_approval_merges_into_the_integration_branch_with_a_build_proof() {
    assert_eq!(
        Pr::approvable().decide(&output("approve")),
        ReviewOutcome::Merge
    );
}

#[test]
fn an_approval_never_merges_into_a_trunk_or_another_branch() {
    let mut pr = Pr::approvable();
    pr.base = Some("main");
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec![
            "model approve: base 'main' is a protected trunk branch — human merge required".into()
        ])
    );
    pr.base = Some("feature/other");
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec!["model approve: base 'feature/other' is not this mission's integration branch — human merge required".into()])
    );
    pr.base = None;
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec![
            "model approve: PR base ref is unknown — refusing an unattended merge".into()
        ])
    );
    // A mission without an integration branch: every approval goes to a person.
    let mut pr = Pr::approvable();
    pr.integration = None;
    assert!(matches!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(_)
    ));
}

#[test]
fn an_approval_without_a_build_proof_for_the_head_escalates() {
    let mut pr = Pr::approvable();
    pr.checks = vec![
        check("test", "0ld5ha0000", "success"),
        check("lint", HEAD, "success"),
    ];
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec![
            "no build/test check reported for head commit abc1234: an absent check run is not a pass"
                .into()
        ])
    );
    pr.checks = vec![check("build", HEAD, "failure")];
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec![
            "no build/test check reached a successful conclusion: build: failure".into(),
            "CI checks failed for abc1234: build".into()
        ])
    );
}

#[test]
fn triggers_on_the_servers_file_list_turn_an_approval_into_an_escalation() {
    let mut pr = Pr::approvable();
    pr.files = Files::Listed(vec![
        file("src/lib.rs", "+x"),
        file("migrations/0009_drop.sql", "+DROP TABLE users;"),
    ]);
    let ReviewOutcome::Escalate(reasons) = pr.decide(&output("approve")) else {
        panic!("an unsafe migration escalates");
    };
    assert!(reasons[0].starts_with("migration: "), "{reasons:?}");
    let mut pr = Pr::approvable();
    pr.policy = policy(None, &["infra/"]);
    pr.files = Files::Listed(vec![file("infra/prod.tf", "+x")]);
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec![
            "touches escalation path infra/prod.tf (matched infra/)".into()
        ])
    );
    pr.files = Files::Listed(vec![]);
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec!["the PR lists no changed files".into()])
    );
    pr.files = Files::Missing;
    assert_eq!(
        pr.decide(&output("approve")),
        ReviewOutcome::Escalate(vec!["the PR's file listing could not be fetched".into()])
    );
}

#[test]
fn approve_only_leaves_the_merge_to_a_person() {
    let mut pr = Pr::approvable();
    pr.policy = policy(Some("approve-only"), &[]);
    assert_eq!(pr.decide(&output("approve")), ReviewOutcome::AwaitingPerson);
}

#[test]
fn requested_changes_retry_until_the_limit_then_escalate() {
    let mut pr = Pr::approvable();
    assert_eq!(
        pr.decide(&output("request-changes")),
        ReviewOutcome::Retry { next_iteration: 2 }
    );
    pr.iteration = MAX_REVIEW_ITERATIONS;
    assert_eq!(
        pr.decide(&output("request-changes")),
        ReviewOutcome::Escalate(vec![
            "the reviewer requested changes 3 times: a person decides".into()
        ])
    );
}

#[test]
fn an_escalation_keeps_the_reviewers_reason_and_is_never_upgraded() {
    let pr = Pr::approvable();
    let mut escalate = output("escalate");
    escalate.escalation_reason = Some("Touches billing".into());
    assert_eq!(
        pr.decide(&escalate),
        ReviewOutcome::Escalate(vec!["Touches billing".into()])
    );
    assert_eq!(
        pr.decide(&output("escalate")),
        ReviewOutcome::Escalate(vec!["the reviewer escalated it".into()])
    );
}

#[test]
fn an_approval_waits_for_ci_still_running_on_the_head() {
    let mut pr = Pr::approvable();
    pr.checks = vec![CheckRun {
        name: "test".into(),
        head_sha: HEAD.into(),
        status: "in_progress".into(),
        conclusion: None,
        details_url: None,
    }];
    assert_eq!(pr.decide(&output("approve")), ReviewOutcome::AwaitingCi);
}

#[test]
fn with_auto_merge_off_an_approval_leaves_the_merge_to_a_person() {
    let mut pr = Pr::approvable();
    pr.auto_merge_on_green = false;
    assert_eq!(pr.decide(&output("approve")), ReviewOutcome::AwaitingPerson);
}
