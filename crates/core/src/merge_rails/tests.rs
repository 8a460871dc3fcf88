use super::*;
use crate::merge_policy::{effective_policy, AgentReview, Threshold};
use crate::test_support::check_run;

fn file(path: &str, additions: i64) -> PrFile {
    PrFile {
        path: path.into(),
        status: "modified".into(),
        additions,
        deletions: 0,
        patch: None,
    }
}

fn facts<'a>(files: &'a Files, checks: &'a [CheckRun]) -> PrFacts<'a> {
    PrFacts {
        number: 3,
        head_sha: Some("abc1234def"),
        files,
        checks,
        merged: false,
        closed: false,
        review: ReviewStatus::None,
    }
}

fn contract(reason: &str) -> MigrationReport {
    MigrationReport {
        verdict: Verdict::Contract,
        reasons: vec![reason.into()],
        files: vec![],
    }
}

#[test]
fn each_reason_names_its_rail() {
    let policy = effective_policy(
        false,
        false,
        Some(&MergePolicy {
            tier: "human".into(),
            threshold: Some(Threshold {
                max_lines: Some(10),
                max_source_lines: None,
                deny_paths: vec!["infra/".into()],
            }),
            agent_review: Some(AgentReview {
                reviewer_role: "reviewer".into(),
                escalate_to_paths: vec!["infra/".into()],
                max_confidence_threshold: None,
                gate_condition: None,
            }),
            stall_notify_minutes: None,
        }),
        None,
    );
    let files = Files::Listed(vec![
        file("infra/prod.tf", 30),
        file("migrations/0001_x.sql", 1),
    ]);
    let red = [check_run(
        "test",
        "abc1234def",
        "completed",
        Some("failure"),
    )];
    let found = escalations(
        &files,
        &policy.policy,
        &MigrationLayout::default(),
        |listed| {
            assert_eq!(listed.len(), 2);
            contract("migrations/0001_x.sql: drops table x")
        },
    );
    let d = decide(&facts(&files, &red), &policy, true, found);
    // The human tier has no size cap; the migration is not a protected path.
    assert_eq!(
        d.rails,
        [
            Rail::Ci,
            Rail::ProtectedPath,
            Rail::EscalationPath,
            Rail::Migration,
            Rail::Tier
        ]
    );
    assert_eq!(d.rails.len(), d.evaluation.reasons.len());
    assert_eq!(d.evaluation.state, PrState::CiFailing);
    assert_eq!(
        d.evaluation.reasons[3],
        "migration: migrations/0001_x.sql: drops table x"
    );
    assert!(d.evaluation.migrations.is_some());
}

#[test]
fn an_unlisted_pr_is_not_classified_and_a_clean_one_merges() {
    let policy = effective_policy(false, false, None, None);
    let layout = MigrationLayout::default();
    let found = escalations(&Files::Missing, &policy.policy, &layout, |_| {
        unreachable!("no listing, nothing to classify")
    });
    assert_eq!(
        found.holds,
        [Hold {
            rail: Rail::FileListing,
            reason: "the PR's file listing could not be fetched".into()
        }]
    );
    let files = Files::Listed(vec![file("src/lib.rs", 5)]);
    let green = [check_run(
        "test",
        "abc1234def",
        "completed",
        Some("success"),
    )];
    let clean = escalations(&files, &policy.policy, &layout, |_| no_migrations());
    assert_eq!(clean, Escalations::default());
    let d = decide(&facts(&files, &green), &policy, true, clean.clone());
    assert!(d.evaluation.auto_merge && d.rails.is_empty());
    let off = decide(&facts(&files, &green), &policy, false, clean);
    assert_eq!(off.rails, [Rail::AutoMergeOff]);
}

#[test]
fn the_migration_layout_finds_migrations() {
    let layout = MigrationLayout::default();
    assert!(layout.is_migration("migrations/0001_x.sql"));
    assert!(layout.is_migration("db/migrations/0001_x.sql"));
    assert!(!layout.is_migration("migrations/README.md"));
    assert!(!layout.is_migration("src/migrations.sql"));
}

#[test]
fn git_config_gives_the_policy_layout_and_auto_merge_with_their_defaults() {
    let none = GitMergeConfig::of(&serde_json::Value::Null);
    assert_eq!(none.policy, None);
    assert!(none.auto_merge_on_green, "on unless turned off");
    assert_eq!(none.layout(), MigrationLayout::default());
    let set = GitMergeConfig::of(&serde_json::json!({
        "mergePolicy": {"tier": "human"}, "migrationsPath": "db/migrate/",
        "autoMergeOnGreenCI": false
    }));
    assert_eq!(set.policy.as_ref().map(|p| p.tier.as_str()), Some("human"));
    assert!(!set.auto_merge_on_green);
    assert_eq!(set.layout().dir, "db/migrate/");
    assert_eq!(set.layout().schema_file, "schema.sql");
}
