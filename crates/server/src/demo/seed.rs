//! Demo data: a team, a workspace and half a dozen missions in the states a team meets
//! every day (a plan awaiting review on a mission near its budget, work in flight,
//! failures, a paused and a completed mission, a scheduled one), with what their agents
//! spent.

use super::seeder::{ago, step, NoteSpec, Run, Seeder, TaskSpec, REPO};
use crate::config::CheckinConfig;
use crate::db::{Db, Tx};
use crate::error::ApiResult;
use crate::store::accounts::{create_key, ensure_team};
use crate::store::missions::{self, find_mission};
use crate::store::schedules::{insert_for_mission, NewSchedule};
use crate::store::workspaces::{self, NewWorkspace};
use crate::time::iso;
use buildd_core::money::Usd;
use buildd_core::schedule::context_keys::HEARTBEAT;
use buildd_core::{AccountLevel, NoteKind};
use chrono::{Duration, Utc};
use serde_json::{json, Map};

pub const DEMO_TEAM: &str = "Demo team";

/// Seeds the demo when the database has no missions yet. Returns whether it did.
pub async fn seed_if_empty(db: &Db) -> ApiResult<bool> {
    let mut tx = db.write().await?;
    if missions::count_all(&mut tx).await? > 0 {
        return Ok(false);
    }
    seed(&mut tx).await?;
    tx.commit().await?;
    Ok(true)
}

/// A new admin key of the demo team, for the dashboard link.
pub async fn dashboard_key(db: &Db) -> ApiResult<String> {
    let mut tx = db.write().await?;
    let team = ensure_team(&mut tx, DEMO_TEAM).await?;
    let key = create_key(&mut tx, &team, &AccountLevel::Admin, "dashboard link").await?;
    tx.commit().await?;
    Ok(key)
}

async fn seed(tx: &mut Tx) -> ApiResult<()> {
    let team = ensure_team(tx, DEMO_TEAM).await?;
    let workspace = NewWorkspace {
        repo: Some(REPO.into()),
        local_path: Some("main".into()),
        created_at: ago(60 * 24 * 30),
        updated_at: ago(60 * 24 * 30),
        ..NewWorkspace::new(&team, "storefront")
    };
    workspaces::insert(tx, &workspace).await?;
    let mut s = Seeder::new(tx, team, workspace.id);

    // A plan waiting for a person.
    let m = s
        .mission(
            "Add a health endpoint",
            "Expose `GET /healthz` so the load balancer can tell a live instance from a stuck one.",
            "active",
            1,
            90,
        )
        .await?;
    let plan = json!([
        step(
            "endpoint",
            "Add GET /healthz",
            "Add a route that answers `{\"ok\":true}` with status 200.",
            &[]
        ),
        step(
            "db-check",
            "Check the database in /healthz",
            "Ping the database with a 500 ms timeout and answer 503 when it fails.",
            &["endpoint"]
        ),
        step(
            "docs",
            "Document /healthz",
            "Describe the endpoint and its status codes in the operations guide.",
            &["endpoint"]
        ),
    ]);
    s.organizer(&m, "Add a health endpoint", "completed", plan, 30)
        .await?;
    // Its budget leaves room for about one step: approving the plan, a person watches the
    // budget run out, and raises it.
    let planned = find_mission(s.tx, &s.team, &m).await?.spend();
    missions::set_budget(s.tx, &m, Some(planned + Usd::from_cents(120)), false).await?;

    // Work in flight: merged, awaiting merge, running, queued behind it, cancelled.
    // Payment code merges only by a person's hand.
    let policy = json!({"tier": "auto-threshold",
                        "threshold": {"maxLines": 800, "denyPaths": ["src/payments/"]}});
    let m = s
        .mission_with(
            "Checkout redesign",
            "Rebuild the checkout as three short steps, keeping every payment provider working.",
            "active",
            2,
            60 * 24 * 3,
            Some(policy),
        )
        .await?;
    let plan_steps = json!([
        step(
            "cart",
            "Extract cart summary component",
            "Move the cart summary into its own component.",
            &[]
        ),
        step(
            "payment",
            "Restyle payment form",
            "Apply the new design to the payment form.",
            &["cart"]
        ),
        step(
            "address",
            "Add address autocomplete",
            "Suggest addresses as the customer types.",
            &[]
        ),
        step(
            "analytics",
            "Wire analytics events",
            "Send a step event for each checkout step.",
            &["address"]
        ),
    ]);
    let planner = s
        .organizer(
            &m,
            "Checkout redesign",
            "completed",
            plan_steps,
            60 * 24 * 3 - 10,
        )
        .await?;
    let child = |title, status, minutes_ago| TaskSpec {
        title,
        description: "Part of the approved checkout plan.",
        status,
        minutes_ago,
        ..Default::default()
    };
    let cart = s
        .task(
            &m,
            TaskSpec {
                parent: Some(&planner),
                ..child("Extract cart summary component", "completed", 60 * 24 * 2)
            },
            Run::MergedPr,
        )
        .await?;
    s.task(
        &m,
        TaskSpec {
            parent: Some(&planner),
            depends_on: vec![cart],
            ..child("Restyle payment form", "completed", 60 * 20)
        },
        Run::OpenPr,
    )
    .await?;
    let address = s
        .task(
            &m,
            TaskSpec {
                parent: Some(&planner),
                ..child("Add address autocomplete", "assigned", 50)
            },
            Run::Live("Running the checkout tests"),
        )
        .await?;
    s.task(
        &m,
        TaskSpec {
            parent: Some(&planner),
            depends_on: vec![address],
            ..child("Wire analytics events", "pending", 45)
        },
        Run::None,
    )
    .await?;
    s.task(
        &m,
        TaskSpec {
            parent: Some(&planner),
            ..child("Try the legacy checkout library", "cancelled", 40)
        },
        Run::None,
    )
    .await?;
    // What the agents said on the way: a decision, and a question waiting for a person.
    s.note(
        &m,
        NoteSpec {
            kind: NoteKind::Decision,
            title: "Dropped the legacy checkout library",
            body: "It pins an old payment SDK; the new form talks to the providers directly.",
            options: &[],
            default: None,
            minutes_ago: 38,
        },
    )
    .await?;
    s.note(
        &m,
        NoteSpec {
            kind: NoteKind::Question,
            title: "Keep PayPal Express on the new payment form?",
            body: "It needs its own button and adds a redirect. Until you answer, it stays.",
            options: &["keep it", "drop it"],
            default: Some("keep it"),
            minutes_ago: 30,
        },
    )
    .await?;

    // Failures that need a person: a failed deliverable, its failed retry, a failed organizer run.
    let m = s
        .mission(
            "Stabilise flaky CI",
            "Get the main branch pipeline green ten runs in a row.",
            "active",
            0,
            60 * 24,
        )
        .await?;
    s.task(
        &m,
        TaskSpec {
            title: "Quarantine flaky payment tests",
            description: "Tag the known-flaky tests and run them separately.",
            status: "completed",
            minutes_ago: 60 * 20,
            ..Default::default()
        },
        Run::Done,
    )
    .await?;
    let race = s
        .task(
            &m,
            TaskSpec {
                title: "Fix race in inventory test",
                description: "The inventory test reads stock before the writer commits.",
                status: "failed",
                minutes_ago: 60 * 10,
                ..Default::default()
            },
            Run::Failed("Tests still flaky after the fix"),
        )
        .await?;
    s.task(
        &m,
        TaskSpec {
            title: "[CI Retry] Fix race in inventory test",
            description: "Retry after CI failure.",
            status: "failed",
            class: "attempt",
            parent: Some(&race),
            minutes_ago: 60 * 8,
            ..Default::default()
        },
        Run::Failed("Same assertion failed on retry"),
    )
    .await?;
    s.organizer(&m, "Stabilise flaky CI", "failed", json!([]), 60 * 7)
        .await?;

    // Paused part-way.
    let m = s
        .mission(
            "Upgrade to Postgres 17",
            "Move every environment to Postgres 17 without downtime.",
            "paused",
            0,
            60 * 24 * 6,
        )
        .await?;
    s.task(
        &m,
        TaskSpec {
            title: "Run the test suite against Postgres 17",
            description: "Add a CI job on Postgres 17.",
            status: "completed",
            minutes_ago: 60 * 24 * 5,
            ..Default::default()
        },
        Run::MergedPr,
    )
    .await?;
    s.task(
        &m,
        TaskSpec {
            title: "Upgrade staging",
            description: "Upgrade the staging cluster.",
            status: "pending",
            minutes_ago: 60 * 24 * 5,
            ..Default::default()
        },
        Run::None,
    )
    .await?;
    s.task(
        &m,
        TaskSpec {
            title: "Upgrade production",
            description: "Upgrade production in the maintenance window.",
            status: "pending",
            minutes_ago: 60 * 24 * 5,
            ..Default::default()
        },
        Run::None,
    )
    .await?;

    // Done, over the last weeks: the team's history the pictures draw.
    super::history::seed(&mut s).await?;

    super::loose_tasks::seed(s.tx, &s.team, &s.workspace).await?;

    // A quiet mission whose next check-in is scheduled.
    let m = s
        .mission(
            "Nightly data export",
            "Keep the nightly export to the warehouse healthy.",
            "active",
            0,
            60 * 24 * 20,
        )
        .await?;
    s.organizer(&m, "Nightly data export", "completed", json!([]), 50)
        .await?;
    let mission = find_mission(s.tx, &s.team, &m).await?;
    let mut context = Map::new();
    context.insert(HEARTBEAT.into(), true.into());
    let schedule = NewSchedule {
        enabled: true,
        next_run_at: Some(iso(Utc::now() + Duration::minutes(40))),
        last_run_at: Some(ago(20)),
        total_runs: 12,
        created_at: ago(60 * 24 * 20),
        updated_at: ago(20),
        ..NewSchedule::for_mission(&mission, &context, &CheckinConfig::default())
    };
    insert_for_mission(s.tx, &m, &schedule).await
}
