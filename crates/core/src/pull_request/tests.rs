use super::*;
use crate::merge_policy::{effective_policy, MergePolicy};
use crate::test_support::check_run as check;

fn file(path: &str, additions: i64, deletions: i64) -> PrFile {
    PrFile {
        path: path.into(),
        status: "modified".into(),
        additions,
        deletions,
        patch: None,
    }
}

fn pr(state: &str, evaluation: PrEvaluation) -> PullRequest {
    PullRequest {
        number: 7,
        url: None,
        title: Some("Add the limiter".into()),
        task_id: None,
        mission_id: None,
        workspace_id: "ws".into(),
        base_branch: None,
        head_branch: None,
        head_sha: Some("abc1234".into()),
        state: state.into(),
        merged_at: None,
        created_at: None,
        files: None,
        checks: vec![],
        policy: effective_policy(false, false, Some(&MergePolicy::builtin()), None),
        evaluation,
        reviews: vec![],
    }
}

fn evaluation(
    state: PrState,
    reasons: &[&str],
    tier_hold: Option<&str>,
    mergeable_by_person: bool,
) -> PrEvaluation {
    let mut reasons: Vec<String> = reasons.iter().map(|r| r.to_string()).collect();
    reasons.extend(tier_hold.map(str::to_string));
    PrEvaluation {
        state,
        auto_merge: reasons.is_empty() && state == PrState::Ready,
        reasons,
        mergeable_by_person,
        tier_hold: tier_hold.map(Into::into),
        migrations: None,
    }
}

#[test]
fn the_latest_run_of_each_check_on_the_head_commit_counts() {
    let checks = [
        check("build", "abc", "completed", Some("failure")),
        check("lint", "abc", "in_progress", None),
        check("build", "old", "completed", Some("success")),
        check("build", "abc", "completed", Some("success")),
    ];
    let head = head_checks(&checks, "abc");
    let seen: Vec<(&str, CheckOutcome)> = head
        .iter()
        .map(|c| (c.name.as_str(), c.outcome()))
        .collect();
    assert_eq!(
        seen,
        [
            ("build", CheckOutcome::Passed),
            ("lint", CheckOutcome::Pending)
        ]
    );
    assert_eq!(
        check("x", "a", "completed", Some("skipped")).outcome(),
        CheckOutcome::Passed
    );
    assert_eq!(
        check("x", "a", "completed", Some("timed_out")).outcome(),
        CheckOutcome::Failed
    );
    assert_eq!(
        check("x", "a", "queued", None).outcome(),
        CheckOutcome::Pending
    );
}

#[test]
fn a_diff_counts_every_line_but_the_cap_leaves_lock_files_out() {
    let size = diff_size(&[
        file("src/lib.rs", 40, 4),
        file("web/package-lock.json", 900, 300),
        file("Cargo.lock", 10, 10),
    ]);
    assert_eq!(
        size,
        DiffSize {
            additions: 950,
            deletions: 314,
            counted: 44,
            lock_files: 2
        }
    );
    assert!(!is_noise("docs/Cargo.lock.md"));
}

#[test]
fn the_outlook_says_what_merges_a_pr_or_what_stops_it() {
    let ready = evaluation(PrState::Ready, &[], None, true);
    assert_eq!(
        merge_outlook(&pr("open", ready.clone())),
        "Merges automatically: CI passed and every rail passes."
    );
    assert_eq!(merge_outlook(&pr("merged", ready.clone())), "Merged.");
    assert_eq!(
        merge_outlook(&pr("closed", ready)),
        "Closed without merging."
    );

    let human = "Mission policy (human): a person merges this PR";
    assert_eq!(
        merge_outlook(&pr(
            "open",
            evaluation(PrState::Held, &[], Some(human), true)
        )),
        format!("Waiting for you to merge ({human}).")
    );
    let reviewer = "Mission policy (agent review): waiting for the reviewer's verdict";
    assert_eq!(
        merge_outlook(&pr(
            "open",
            evaluation(PrState::Held, &[], Some(reviewer), false)
        )),
        format!("Waiting: {reviewer}.")
    );

    let big = "diff size 900 lines > limit 800 (0 lock files not counted)";
    assert_eq!(
        merge_outlook(&pr("open", evaluation(PrState::Held, &[big], None, true))),
        format!("Blocked because {big}. You can merge past it.")
    );

    let failing = "CI checks failed for abc1234: build";
    assert_eq!(
        merge_outlook(&pr(
            "open",
            evaluation(PrState::CiFailing, &[failing, big], None, false)
        )),
        format!("Blocked because {failing}.")
    );

    let pending = "CI checks still pending for abc1234: build";
    assert_eq!(
        merge_outlook(&pr(
            "open",
            evaluation(PrState::CiPending, &[pending], None, false)
        )),
        format!("Waiting for CI ({pending}); then it merges automatically.")
    );
    assert_eq!(
        merge_outlook(&pr(
            "open",
            evaluation(PrState::CiPending, &[pending], Some(human), false)
        )),
        format!("Waiting for CI ({pending}); then it waits: {human}.")
    );
    assert_eq!(
        merge_outlook(&pr(
            "open",
            evaluation(PrState::CiPending, &[pending, big], None, false)
        )),
        format!("Waiting for CI ({pending}); then blocked because {big}.")
    );
}
