use super::*;
use crate::merge_policy::{effective_policy, MergePolicy, Threshold};
use crate::migrations::Verdict;
use crate::test_support::check_run as check;

fn file(path: &str, additions: i64) -> PrFile {
    PrFile {
        path: path.into(),
        status: "modified".into(),
        additions,
        deletions: 0,
        patch: Some("+x".into()),
    }
}

fn evaluate(
    files: &Files,
    checks: &[CheckRun],
    policy: Option<MergePolicy>,
    requires_review: bool,
) -> PrEvaluation {
    let policy = effective_policy(requires_review, false, policy.as_ref(), None);
    let layout = MigrationLayout::default();
    evaluate_pr(
        &PrFacts {
            number: 12,
            head_sha: Some("abc1234def"),
            files,
            checks,
            merged: false,
            closed: false,
            review: ReviewStatus::None,
        },
        &RailSettings {
            policy: &policy,
            layout: &layout,
            open_migrations: &[],
            auto_merge_on_green: true,
        },
    )
}

fn green() -> Vec<CheckRun> {
    vec![check("test", "abc1234def", "completed", Some("success"))]
}

#[test]
fn a_green_small_pr_merges_by_itself() {
    let files = Files::Listed(vec![file("src/lib.rs", 40)]);
    let e = evaluate(&files, &green(), None, false);
    assert_eq!(
        (e.state, e.auto_merge, e.reasons.len()),
        (PrState::Ready, true, 0)
    );
}

#[test]
fn ci_counts_only_the_head_commit_and_the_latest_run_per_name() {
    let files = Files::Listed(vec![file("src/lib.rs", 1)]);
    let old_green = [check("test", "0000000old", "completed", Some("success"))];
    let e = evaluate(&files, &old_green, None, false);
    assert_eq!(e.state, PrState::CiPending);
    assert_eq!(
        e.reasons,
        ["no CI check run reported for head commit abc1234"]
    );
    let rerun = [
        check("test", "abc1234def", "completed", Some("failure")),
        check("test", "abc1234def", "in_progress", None),
    ];
    let e = evaluate(&files, &rerun, None, false);
    assert_eq!(e.reasons, ["CI checks still pending for abc1234: test"]);
    let failed = [check("lint", "abc1234def", "completed", Some("timed_out"))];
    let e = evaluate(&files, &failed, None, false);
    assert_eq!(
        (e.state, e.reasons[0].as_str()),
        (PrState::CiFailing, "CI checks failed for abc1234: lint")
    );
    assert!(!e.auto_merge && !e.mergeable_by_person);
}

#[test]
fn files_size_and_paths_block_with_reasons() {
    for (files, reason) in [
        (Files::Missing, "the PR's file listing could not be fetched"),
        (Files::Malformed, "the PR's file listing is malformed"),
    ] {
        let e = evaluate(&files, &green(), None, false);
        assert_eq!((e.state, e.reasons[0].as_str()), (PrState::Held, reason));
    }
    let big = Files::Listed(vec![
        file("src/a.rs", 700),
        file("src/b.rs", 200),
        file("Cargo.lock", 5000),
    ]);
    let e = evaluate(&big, &green(), None, false);
    assert_eq!(
        e.reasons,
        ["diff size 900 lines > limit 800 (1 lock files not counted)"]
    );
    let deny = MergePolicy {
        threshold: Some(Threshold {
            max_lines: Some(2000),
            max_source_lines: None,
            deny_paths: vec!["infra/".into()],
        }),
        ..MergePolicy::builtin()
    };
    let touches = Files::Listed(vec![file("infra/prod.tf", 3)]);
    let e = evaluate(&touches, &green(), Some(deny), false);
    assert_eq!(
        e.reasons,
        ["touches protected path infra/prod.tf (matched infra/)"]
    );
}

#[test]
fn contract_migrations_hold_and_list_their_verdicts() {
    let migration = PrFile {
        path: "migrations/0007_drop.sql".into(),
        status: "added".into(),
        additions: 1,
        deletions: 0,
        patch: Some("+ALTER TABLE users DROP COLUMN legacy;".into()),
    };
    let e = evaluate(&Files::Listed(vec![migration]), &green(), None, false);
    assert_eq!(e.state, PrState::Held);
    assert_eq!(
        e.reasons,
        ["migration: migrations/0007_drop.sql: drops column users.legacy"]
    );
    let report = e.migrations.unwrap();
    assert_eq!(report.files[0].statements[0].verdict, Verdict::Contract);
}

#[test]
fn only_auto_threshold_merges_unattended() {
    let files = Files::Listed(vec![file("src/lib.rs", 4)]);
    let e = evaluate(&files, &green(), None, true);
    assert_eq!(e.state, PrState::Held);
    assert!(!e.auto_merge && e.mergeable_by_person);
    assert_eq!(
        e.reasons,
        ["Human — this task requires review: a person merges this PR"]
    );
    let review = MergePolicy {
        tier: "agent-review".into(),
        ..MergePolicy::builtin()
    };
    let e = evaluate(&files, &green(), Some(review), false);
    assert!(!e.auto_merge && !e.mergeable_by_person);
    assert_eq!(
        e.reasons,
        ["Agent review — set on this mission: waiting for the reviewer's verdict"]
    );
}

#[test]
fn a_person_merges_what_the_rails_hold_once_ci_passed() {
    let migration = PrFile {
        path: "migrations/0007_drop.sql".into(),
        status: "added".into(),
        additions: 1,
        deletions: 0,
        patch: Some("+DROP TABLE users;".into()),
    };
    let held = Files::Listed(vec![migration]);
    let e = evaluate(&held, &green(), None, false);
    assert!(!e.auto_merge && e.mergeable_by_person);
    let red = vec![check("test", "abc1234def", "completed", Some("failure"))];
    assert!(!evaluate(&held, &red, None, false).mergeable_by_person);
}

#[test]
fn under_agent_review_a_person_merges_only_after_a_verdict_sends_it_to_them() {
    let files = Files::Listed(vec![file("src/lib.rs", 4)]);
    let policy = effective_policy(
        false,
        false,
        Some(&MergePolicy {
            tier: "agent-review".into(),
            ..MergePolicy::builtin()
        }),
        None,
    );
    let layout = MigrationLayout::default();
    let checks = green();
    let at = |review| {
        evaluate_pr(
            &PrFacts {
                number: 12,
                head_sha: Some("abc1234def"),
                files: &files,
                checks: &checks,
                merged: false,
                closed: false,
                review,
            },
            &RailSettings {
                policy: &policy,
                layout: &layout,
                open_migrations: &[],
                auto_merge_on_green: true,
            },
        )
    };
    for (review, person, reason) in [
        (
            ReviewStatus::Pending,
            false,
            "waiting for the reviewer's verdict",
        ),
        (
            ReviewStatus::ChangesRequested,
            false,
            "the reviewer requested changes; a fix is under way",
        ),
        (
            ReviewStatus::Escalated,
            true,
            "the reviewer escalated it to a person",
        ),
        (
            ReviewStatus::Approved,
            true,
            "the reviewer approved; a person merges",
        ),
    ] {
        let e = at(review);
        assert_eq!(e.mergeable_by_person, person, "{review:?}");
        assert!(!e.auto_merge);
        assert_eq!(
            e.reasons,
            [format!("Agent review — set on this mission: {reason}")]
        );
    }
}
