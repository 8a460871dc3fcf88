use super::*;
use crate::merge_policy::{AgentReview, Threshold};
use crate::pull_request::{FileVerdicts, StatementVerdict, Verdict};
use crate::test_support::check_run;

const HEAD: &str = "abc1234def";

fn file(path: &str, additions: i64) -> PrFile {
    PrFile {
        path: path.into(),
        status: "modified".into(),
        additions,
        deletions: 0,
        patch: None,
    }
}

fn green() -> Vec<CheckRun> {
    vec![check_run("test", HEAD, "completed", Some("success"))]
}

fn pr(number: i64, files: Vec<PrFile>) -> RecordedPr {
    RecordedPr {
        number,
        workspace_id: "ws".into(),
        mission_id: Some("m".into()),
        title: None,
        state: PrStatus::Merged,
        opened_at: "2026-11-20T10:00:00Z".into(),
        merged_at: Some("2026-11-20T12:00:00Z".into()),
        head_sha: Some(HEAD.into()),
        listing: Listing::Listed,
        files,
        checks: green(),
        migrations: None,
        review: ReviewStatus::None,
        task_requires_review: false,
        mission_requires_review: false,
        mission_policy: None,
        workspace_policy: None,
        auto_merge_on_green: true,
        migrations_path: None,
        schema_file: None,
    }
}

fn contract() -> MigrationReport {
    MigrationReport {
        verdict: Verdict::Contract,
        reasons: vec!["migrations/0007_drop.sql: drops column users.legacy".into()],
        files: vec![FileVerdicts {
            path: "migrations/0007_drop.sql".into(),
            statements: vec![StatementVerdict {
                statement: "ALTER TABLE users DROP COLUMN legacy".into(),
                verdict: Verdict::Contract,
                reason: "drops column users.legacy".into(),
            }],
        }],
    }
}

/// Eight PRs of the last weeks, one of them older than the window.
fn history() -> Vec<RecordedPr> {
    let small = pr(1, vec![file("src/lib.rs", 40)]);
    let big = pr(2, vec![file("src/a.rs", 700), file("src/b.rs", 200)]);
    let infra = pr(3, vec![file("infra/prod.tf", 3)]);
    let mut migration = pr(4, vec![file("migrations/0007_drop.sql", 1)]);
    migration.migrations = Some(contract());
    let mut red = pr(5, vec![file("src/lib.rs", 4)]);
    red.state = PrStatus::Closed;
    red.checks = vec![check_run("test", HEAD, "completed", Some("failure"))];
    let mut reviewed = pr(6, vec![file("src/lib.rs", 4)]);
    reviewed.mission_requires_review = true;
    let mut old = pr(7, vec![file("src/lib.rs", 4)]);
    old.opened_at = "2026-10-01T10:00:00Z".into();
    let mut unlisted = pr(8, vec![]);
    unlisted.listing = Listing::Missing;
    vec![small, big, infra, migration, red, reviewed, old, unlisted]
}

fn since() -> i64 {
    crate::insights::ms_of("2026-11-01T00:00:00Z").unwrap()
}

fn outcomes(r: &PolicyReplay) -> Vec<(i64, Replayed)> {
    r.prs.iter().map(|p| (p.number, p.outcome)).collect()
}

fn counts(r: &PolicyReplay) -> Vec<(Rail, usize)> {
    r.by_rail.iter().map(|c| (c.rail, c.prs)).collect()
}

#[test]
fn the_policies_as_they_stand_are_the_baseline() {
    let r = replay_policy(&history(), None, since());
    use Replayed::*;
    assert_eq!(
        outcomes(&r),
        [
            (1, MergedByItself),
            (2, WaitedForPerson),
            (3, MergedByItself),
            (4, WaitedForPerson),
            (5, WaitedForCi),
            (6, WaitedForPerson),
            (8, WaitedForPerson),
        ]
    );
    assert_eq!(
        (
            r.merged_by_itself,
            r.waited_for_ci,
            r.waited_for_reviewer,
            r.waited_for_person
        ),
        (2, 1, 0, 4)
    );
    assert_eq!(
        counts(&r),
        [
            (Rail::FileListing, 1),
            (Rail::Size, 1),
            (Rail::Migration, 1),
            (Rail::Tier, 1)
        ]
    );
    assert_eq!(
        r.prs[1].reasons,
        ["diff size 900 lines > limit 800 (0 lock files not counted)"]
    );
    assert_eq!(
        r.describe(),
        "Of 7 PRs, 2 would have merged by themselves; 4 would have waited for a person (file \
         listing 1, size cap 1, migration 1, a person merges 1); 1 would have waited for CI."
    );
}

#[test]
fn a_proposed_workspace_policy_moves_prs_between_outcomes() {
    let proposal = Proposal::Workspace {
        workspace_id: "ws".into(),
        policy: Some(MergePolicy {
            threshold: Some(Threshold {
                max_lines: Some(1000),
                max_source_lines: None,
                deny_paths: vec!["infra/".into()],
            }),
            ..MergePolicy::builtin()
        }),
    };
    let r = replay_policy(&history(), Some(&proposal), since());
    use Replayed::*;
    assert_eq!(
        outcomes(&r)[..3],
        [
            (1, MergedByItself),
            (2, MergedByItself),
            (3, WaitedForPerson)
        ]
    );
    assert_eq!(
        counts(&r),
        [
            (Rail::FileListing, 1),
            (Rail::ProtectedPath, 1),
            (Rail::Migration, 1),
            (Rail::Tier, 1)
        ]
    );
    assert_eq!(
        r.prs[2].reasons,
        ["touches protected path infra/prod.tf (matched infra/)"]
    );
    // The mission that requires review keeps its person whatever the workspace says.
    assert_eq!(
        r.prs[5].policy.reason,
        "Human — this mission requires review"
    );
    // Another workspace's proposal changes nothing here.
    let elsewhere = Proposal::Workspace {
        workspace_id: "other".into(),
        policy: Some(MergePolicy {
            tier: "human".into(),
            ..MergePolicy::builtin()
        }),
    };
    assert_eq!(
        replay_policy(&history(), Some(&elsewhere), since()),
        replay_policy(&history(), None, since())
    );
}

#[test]
fn under_agent_review_the_reviewer_decides_unless_it_sent_the_pr_on() {
    let proposal = Proposal::Mission {
        mission_id: "m".into(),
        policy: Some(MergePolicy {
            tier: "agent-review".into(),
            threshold: None,
            agent_review: Some(AgentReview {
                reviewer_role: "reviewer".into(),
                escalate_to_paths: vec!["infra/".into()],
                max_confidence_threshold: None,
                gate_condition: None,
            }),
            stall_notify_minutes: None,
        }),
    };
    let prs = history();
    let one = |pr: &RecordedPr| replay_pr(pr, Some(&proposal));
    let small = one(&prs[0]);
    assert_eq!(small.outcome, Replayed::WaitedForReviewer);
    assert_eq!(small.rails, [Rail::Reviewer]);
    let infra = one(&prs[2]);
    assert_eq!(infra.outcome, Replayed::WaitedForPerson);
    assert_eq!(infra.rails, [Rail::EscalationPath, Rail::Reviewer]);
    let mut escalated = prs[0].clone();
    escalated.review = ReviewStatus::Escalated;
    assert_eq!(one(&escalated).outcome, Replayed::WaitedForPerson);
}

#[test]
fn a_proposal_covers_its_workspace_or_its_mission_and_keeps_its_scope() {
    let mut elsewhere = pr(9, vec![]);
    elsewhere.workspace_id = "other".into();
    elsewhere.mission_id = None;
    let ws = Proposal::Workspace {
        workspace_id: "ws".into(),
        policy: None,
    };
    let mission = Proposal::Mission {
        mission_id: "m".into(),
        policy: None,
    };
    assert!(ws.covers(&pr(1, vec![])) && !ws.covers(&elsewhere));
    assert!(mission.covers(&pr(1, vec![])) && !mission.covers(&elsewhere));
    let human = MergePolicy {
        tier: "human".into(),
        ..MergePolicy::builtin()
    };
    assert_eq!(
        mission.with(Some(human.clone())),
        Proposal::Mission {
            mission_id: "m".into(),
            policy: Some(human)
        }
    );
    assert_eq!(Replayed::WaitedForPerson.label(), "Waited for a person");
}

#[test]
fn no_prs_and_one() {
    let none = replay_policy(&[], None, since());
    assert_eq!(none, PolicyReplay::default());
    assert_eq!(none.describe(), "No PRs in this period.");
    let one = replay_policy(&history()[..1], None, since());
    assert_eq!(one.merged_by_itself, 1);
    assert_eq!(one.describe(), "Of 1 PR, 1 would have merged by itself.");
    assert_eq!(weeks_before(since(), 0), since());
}

#[test]
fn a_recorded_pr_reads_from_json() {
    let pr: RecordedPr = serde_json::from_value(serde_json::json!({
        "number": 3, "workspaceId": "ws", "state": "open",
        "openedAt": "2026-11-20T10:00:00Z", "listing": "malformed",
        "workspacePolicy": {"tier": "human"}, "review": "escalated"
    }))
    .unwrap();
    assert!(pr.auto_merge_on_green && pr.files.is_empty());
    assert_eq!(pr.listing, Listing::Malformed);
    let proposal: Proposal = serde_json::from_value(serde_json::json!({
        "scope": "workspace", "workspaceId": "ws", "policy": null
    }))
    .unwrap();
    assert_eq!(
        policy_under(&pr, Some(&proposal)).reason,
        "Auto-threshold — the built-in default"
    );
    assert_eq!(
        policy_under(&pr, None).reason,
        "Human — inherited from the workspace default"
    );
}

/// The replay reaches the server's own verdict on the same facts: `evaluate_pr` with the
/// migrations classified there, against the replay with that verdict recorded.
#[cfg(feature = "sql")]
#[test]
fn the_replay_agrees_with_the_server() {
    use crate::pr_rails::{evaluate_pr, RailSettings};

    let added = |path: &str, sql: &str| PrFile {
        path: path.into(),
        status: "added".into(),
        additions: 1,
        deletions: 0,
        patch: Some(format!("+{sql}")),
    };
    let file_sets = [
        Files::Listed(vec![file("src/lib.rs", 40)]),
        Files::Listed(vec![file("src/a.rs", 900), file("Cargo.lock", 4000)]),
        Files::Listed(vec![file("infra/prod.tf", 3), file("src/x.rs", 1)]),
        Files::Listed(vec![added(
            "migrations/0007_drop.sql",
            "ALTER TABLE users DROP COLUMN legacy;",
        )]),
        Files::Listed(vec![added(
            "migrations/0008_add.sql",
            "CREATE TABLE t (id int);",
        )]),
        Files::Listed(vec![
            added("migrations/0009_add.sql", "CREATE TABLE u (id int);"),
            added("migrations/0010_drop.sql", "DROP TABLE u;"),
        ]),
        Files::Listed(vec![file("schema.sql", 3)]),
        Files::Listed(vec![]),
        Files::Missing,
        Files::Malformed,
    ];
    let check_sets = [
        green(),
        vec![],
        vec![check_run("lint", HEAD, "completed", Some("timed_out"))],
        vec![check_run("test", HEAD, "in_progress", None)],
    ];
    let policies = [
        None,
        Some(MergePolicy {
            threshold: Some(Threshold {
                max_lines: Some(50),
                max_source_lines: None,
                deny_paths: vec!["infra/".into()],
            }),
            ..MergePolicy::builtin()
        }),
        Some(MergePolicy {
            tier: "agent-review".into(),
            threshold: None,
            agent_review: Some(AgentReview {
                reviewer_role: "reviewer".into(),
                escalate_to_paths: vec!["src/".into()],
                max_confidence_threshold: None,
                gate_condition: None,
            }),
            stall_notify_minutes: None,
        }),
        Some(MergePolicy {
            tier: "human".into(),
            ..MergePolicy::builtin()
        }),
    ];
    let layout = MigrationLayout::default();
    let mut compared = 0;
    for files in &file_sets {
        for checks in &check_sets {
            for workspace in &policies {
                for (review, auto_merge_on_green) in [
                    (ReviewStatus::None, true),
                    (ReviewStatus::Escalated, true),
                    (ReviewStatus::None, false),
                ] {
                    let policy = effective_policy(false, false, None, workspace.as_ref());
                    let server = evaluate_pr(
                        &PrFacts {
                            number: 12,
                            head_sha: Some(HEAD),
                            files,
                            checks,
                            merged: false,
                            closed: false,
                            review,
                        },
                        &RailSettings {
                            policy: &policy,
                            layout: &layout,
                            open_migrations: &[],
                            auto_merge_on_green,
                        },
                    );
                    let (listing, listed) = match files {
                        Files::Listed(f) => (Listing::Listed, f.clone()),
                        Files::Missing => (Listing::Missing, vec![]),
                        Files::Malformed => (Listing::Malformed, vec![]),
                    };
                    // As the server records it: the classifier's verdict, patches left out.
                    let recorded = RecordedPr {
                        number: 12,
                        listing,
                        files: listed,
                        checks: checks.clone(),
                        review,
                        workspace_policy: workspace.clone(),
                        mission_policy: None,
                        auto_merge_on_green,
                        ..pr(12, vec![])
                    }
                    .with_verdict();
                    assert!(recorded.files.iter().all(|f| f.patch.is_none()));
                    let replayed = replay_pr(&recorded, None);
                    assert_eq!(replayed.policy, policy);
                    assert_eq!(decide_recorded(&recorded, &policy).evaluation, server);
                    assert_eq!(
                        replayed.outcome == Replayed::MergedByItself,
                        server.auto_merge
                    );
                    assert_eq!(replayed.reasons, server.reasons);
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 10 * 4 * 4 * 3);
}
