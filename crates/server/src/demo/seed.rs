//! Demo data: a team, a workspace and half a dozen missions in the states a team meets
//! every day (a plan awaiting review on a mission near its budget, work in flight,
//! failures, a paused and a completed mission, a scheduled one), with what their agents
//! spent.

use super::costs::{partial, run_usage, RunKind};
use crate::config::CheckinConfig;
use crate::db::{Db, Tx};
use crate::error::ApiResult;
use crate::store::accounts::{create_key, ensure_team};
use crate::store::missions::{self, find_mission, NewMission};
use crate::store::notes::{insert_note, NewNote};
use crate::store::prs::{self, insert_check, NewPr};
use crate::store::schedules::{insert_for_mission, NewSchedule};
use crate::store::tasks::{self, NewTask};
use crate::store::workers::{self, NewWorker};
use crate::store::workspaces::{self, NewWorkspace};
use crate::time::iso;
use buildd_core::money::Usd;
use buildd_core::pull_request::CheckRun;
use buildd_core::schedule::context_keys::HEARTBEAT;
use buildd_core::{AccountLevel, MissionStatus, TaskClass, TaskMode, TaskStatus, WorkerStatus};
use chrono::{Duration, Utc};
use serde_json::{json, Map, Value};

pub const DEMO_TEAM: &str = "Demo team";
const REPO: &str = "acme/storefront";

fn ago(minutes: i64) -> String {
    iso(Utc::now() - Duration::minutes(minutes))
}

pub(super) struct Seeder<'a> {
    pub(super) tx: &'a mut Tx,
    team: String,
    workspace: String,
    next_pr: i64,
}

#[derive(Default)]
pub(super) struct TaskSpec<'a> {
    pub(super) title: &'a str,
    pub(super) description: &'a str,
    pub(super) status: &'a str,
    pub(super) mode: &'a str,
    pub(super) class: &'a str,
    pub(super) parent: Option<&'a str>,
    pub(super) depends_on: Vec<String>,
    pub(super) result: Option<Value>,
    pub(super) minutes_ago: i64,
}

/// A demo note.
struct NoteSpec<'a> {
    kind: &'a str,
    title: &'a str,
    body: &'a str,
    options: &'a [&'a str],
    default: Option<&'a str>,
    minutes_ago: i64,
}

/// The latest worker of a demo task.
pub(super) enum Run {
    None,
    Live(&'static str),
    Done,
    Failed(&'static str),
    OpenPr,
    MergedPr,
}

impl Seeder<'_> {
    /// An agent's note on `mission`'s feed; a question stays open for a person.
    async fn note(&mut self, mission: &str, n: NoteSpec<'_>) -> ApiResult<()> {
        let status = if n.kind == "question" {
            "open"
        } else {
            "answered"
        };
        let note = NewNote {
            body: Some(n.body.into()),
            default_choice: n.default.map(str::to_string),
            options: n.options.iter().map(|o| o.to_string()).collect(),
            created_at: Some(ago(n.minutes_ago)),
            ..NewNote::new("agent", n.kind, n.title, status)
        };
        insert_note(self.tx, &self.team, Some(mission), note).await?;
        Ok(())
    }

    pub(super) async fn mission(
        &mut self,
        title: &str,
        description: &str,
        status: &str,
        priority: i64,
        minutes_ago: i64,
    ) -> ApiResult<String> {
        self.mission_with(title, description, status, priority, minutes_ago, None)
            .await
    }

    /// A mission whose PRs merge under `merge_policy`.
    async fn mission_with(
        &mut self,
        title: &str,
        description: &str,
        status: &str,
        priority: i64,
        minutes_ago: i64,
        merge_policy: Option<Value>,
    ) -> ApiResult<String> {
        let mission = NewMission {
            workspace_id: Some(self.workspace.clone()),
            description: Some(description.into()),
            status: MissionStatus::parse(status),
            priority,
            merge_policy,
            created_at: ago(minutes_ago),
            updated_at: ago(minutes_ago.min(5)),
            ..NewMission::new(&self.team, title)
        };
        missions::insert(self.tx, &mission).await?;
        Ok(mission.id)
    }

    pub(super) async fn task(
        &mut self,
        mission: &str,
        spec: TaskSpec<'_>,
        run: Run,
    ) -> ApiResult<String> {
        let planning = spec.mode == "planning";
        // A failed run leaves its reason in the task's result, as a runner's report does.
        let result = match (&run, spec.result) {
            (Run::Failed(error), None) => Some(json!({"error": error})),
            (_, result) => result,
        };
        let task = NewTask {
            mission_id: Some(mission.into()),
            parent_task_id: spec.parent.map(str::to_string),
            description: Some(spec.description.into()),
            status: TaskStatus::parse(spec.status),
            mode: if planning {
                TaskMode::Planning
            } else {
                TaskMode::Execution
            },
            task_class: if spec.class.is_empty() {
                TaskClass::Work
            } else {
                TaskClass::parse(spec.class)
            },
            creation_source: Some(if planning { "orchestrator" } else { "api" }.into()),
            depends_on: spec.depends_on,
            result,
            output_requirement: if planning { "auto" } else { "pr_required" }.into(),
            created_at: ago(spec.minutes_ago),
            updated_at: ago((spec.minutes_ago - 20).max(1)),
            ..NewTask::new(&self.team, &self.workspace, spec.title)
        };
        tasks::insert(self.tx, &task).await?;
        let kind = if planning {
            RunKind::Planning
        } else {
            RunKind::Execution
        };
        self.worker(mission, &task.id, run, kind, spec.minutes_ago)
            .await?;
        Ok(task.id)
    }

    /// The latest worker of demo task `task`, as `run` left it, with the PR it opened.
    async fn worker(
        &mut self,
        mission: &str,
        task: &str,
        run: Run,
        kind: RunKind,
        minutes_ago: i64,
    ) -> ApiResult<()> {
        // A live run has spent part of its cost; a failed one stopped two thirds in.
        let whole = run_usage(task, kind);
        let usage = match run {
            Run::Live(_) => partial(whole, 1, 2),
            Run::Failed(_) => partial(whole, 2, 3),
            _ => whole,
        };
        let (status, action, pr, merged, error) = match run {
            Run::None => return Ok(()),
            Run::Live(action) => (WorkerStatus::Running, Some(action), false, false, None),
            Run::Done => (WorkerStatus::Completed, None, false, false, None),
            Run::Failed(error) => (WorkerStatus::Failed, None, false, false, Some(error)),
            Run::OpenPr => (WorkerStatus::Completed, None, true, false, None),
            Run::MergedPr => (WorkerStatus::Completed, None, true, true, None),
        };
        let pr_number = pr.then(|| {
            self.next_pr += 1;
            self.next_pr
        });
        let finished = status != WorkerStatus::Running;
        let at = ago(minutes_ago);
        let worker = NewWorker {
            name: "demo-runner".into(),
            branch: Some(format!("buildd/{}", &task[..8])),
            status,
            current_action: action.map(str::to_string),
            pr_url: pr_number.map(|n| format!("https://github.com/{REPO}/pull/{n}")),
            pr_number,
            merged_at: merged.then(|| ago((minutes_ago - 30).max(1))),
            pr_lifecycle_status: pr.then(|| if merged { "merged" } else { "ci_green" }.into()),
            error: error.map(str::to_string),
            started_at: Some(ago(minutes_ago - 1)),
            completed_at: finished.then(|| ago((minutes_ago - 20).max(1))),
            cost_micros: usage.cost.micros(),
            input_tokens: usage.input_tokens as i64,
            output_tokens: usage.output_tokens as i64,
            ..NewWorker::new(task, &self.workspace, "demo", &at)
        };
        workers::insert(self.tx, &worker).await?;
        if let Some(number) = pr_number {
            self.pull_request(mission, task, number, merged, minutes_ago)
                .await?;
        }
        Ok(())
    }

    /// The PR a demo task opened, as the PR list shows it: green CI, one changed file. An
    /// open one changes the payment code, which its mission protects: it waits for a person.
    async fn pull_request(
        &mut self,
        mission: &str,
        task: &str,
        number: i64,
        merged: bool,
        minutes_ago: i64,
    ) -> ApiResult<()> {
        let sha = format!("{:040x}", number);
        let opened = ago((minutes_ago - 20).max(1));
        let path = if merged {
            format!("src/feature_{number}.rs")
        } else {
            "src/payments/form.rs".into()
        };
        let pr = NewPr {
            task_id: Some(task.into()),
            mission_id: Some(mission.into()),
            url: Some(format!("https://github.com/{REPO}/pull/{number}")),
            base_branch: Some("main".into()),
            head_branch: Some(format!("buildd/{}", &task[..8])),
            head_sha: Some(sha.clone()),
            files: Some(
                json!([{"path": path, "status": "added", "additions": 40, "deletions": 4}])
                    .to_string(),
            ),
            files_state: "listed".into(),
            state: if merged { "merged" } else { "open" }.into(),
            merged_at: merged.then(|| ago((minutes_ago - 30).max(1))),
            merged_by: merged.then(|| "auto-threshold".into()),
            created_at: opened.clone(),
            updated_at: opened.clone(),
            ..NewPr::new(&self.team, &self.workspace, number)
        };
        prs::insert(self.tx, &pr).await?;
        let check = CheckRun {
            name: "build".into(),
            head_sha: sha,
            status: "completed".into(),
            conclusion: Some("success".into()),
            details_url: Some(format!(
                "https://github.com/{REPO}/actions/runs/{}",
                9000 + number
            )),
        };
        insert_check(self.tx, &pr.id, &check, &opened).await
    }

    pub(super) async fn organizer(
        &mut self,
        mission: &str,
        title: &str,
        status: &str,
        plan: Value,
        minutes_ago: i64,
    ) -> ApiResult<String> {
        let steps = plan.as_array().map_or(0, Vec::len);
        let result = (status == "completed").then(|| {
            json!({
                "summary": format!("Planned {steps} steps"),
                "structuredOutput": {
                    "plan": plan,
                    "summary": if steps == 0 { "Nothing needs doing right now." } else { "Ship in small, reviewable steps." },
                    "missionComplete": false
                }
            })
        });
        let run = if status == "failed" {
            Run::Failed("Organizer run timed out")
        } else {
            Run::Done
        };
        self.task(
            mission,
            TaskSpec {
                title: &format!("Mission: {title}"),
                description: "Plan the mission's next step.",
                status,
                mode: "planning",
                class: "bookkeeping",
                result,
                minutes_ago,
                ..Default::default()
            },
            run,
        )
        .await
    }
}

pub(super) fn step(r: &str, title: &str, description: &str, depends_on: &[&str]) -> Value {
    json!({
        "ref": r, "title": title, "description": description,
        "dependsOn": depends_on, "outputRequirement": "pr_required", "kind": "engineering",
        "complexity": "normal"
    })
}

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
    let mut s = Seeder {
        tx,
        team,
        workspace: workspace.id,
        next_pr: 100,
    };

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
            kind: "decision",
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
            kind: "question",
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
