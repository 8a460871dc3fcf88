//! Demo data: a team, a workspace and half a dozen missions in the states a team meets
//! every day (a plan awaiting review, work in flight, failures, a paused and a completed
//! mission, a scheduled one).

use crate::db::{Db, Tx};
use crate::store::accounts::{create_key, ensure_team};
use crate::time::{iso, new_id};
use buildd_core::AccountLevel;
use chrono::{Duration, Utc};
use serde_json::{json, Value};

pub const DEMO_TEAM: &str = "Demo team";
const REPO: &str = "acme/storefront";

fn ago(minutes: i64) -> String {
    iso(Utc::now() - Duration::minutes(minutes))
}

struct Seeder<'a> {
    tx: &'a mut Tx,
    team: String,
    workspace: String,
    next_pr: i64,
}

#[derive(Default)]
struct TaskSpec<'a> {
    title: &'a str,
    description: &'a str,
    status: &'a str,
    mode: &'a str,
    class: &'a str,
    parent: Option<&'a str>,
    depends_on: Vec<String>,
    result: Option<Value>,
    minutes_ago: i64,
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
enum Run {
    None,
    Live(&'static str),
    Done,
    Failed(&'static str),
    OpenPr,
    MergedPr,
}

impl Seeder<'_> {
    /// An agent's note on `mission`'s feed; a question stays open for a person.
    async fn note(&mut self, mission: &str, n: NoteSpec<'_>) -> Result<(), sqlx::Error> {
        let NoteSpec {
            kind,
            title,
            body,
            options,
            default,
            minutes_ago,
        } = n;
        let status = if kind == "question" {
            "open"
        } else {
            "answered"
        };
        let options = serde_json::to_string(options).unwrap_or_else(|_| "[]".into());
        sqlx::query(
            "INSERT INTO mission_notes (id, team_id, mission_id, author_type, type, title, body, \
             default_choice, options, status, created_at) \
             VALUES (?, ?, ?, 'agent', ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(new_id())
        .bind(&self.team)
        .bind(mission)
        .bind(kind)
        .bind(title)
        .bind(body)
        .bind(default)
        .bind(&options)
        .bind(status)
        .bind(ago(minutes_ago))
        .execute(&mut **self.tx)
        .await?;
        Ok(())
    }

    async fn mission(
        &mut self,
        title: &str,
        description: &str,
        status: &str,
        priority: i64,
        minutes_ago: i64,
    ) -> Result<String, sqlx::Error> {
        let id = new_id();
        sqlx::query(
            "INSERT INTO missions (id, team_id, workspace_id, title, description, status, priority, \
             created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&id)
        .bind(&self.team)
        .bind(&self.workspace)
        .bind(title)
        .bind(description)
        .bind(status)
        .bind(priority)
        .bind(ago(minutes_ago))
        .bind(ago(minutes_ago.min(5)))
        .execute(&mut **self.tx)
        .await?;
        Ok(id)
    }

    async fn task(
        &mut self,
        mission: &str,
        spec: TaskSpec<'_>,
        run: Run,
    ) -> Result<String, sqlx::Error> {
        let id = new_id();
        let at = ago(spec.minutes_ago);
        // A failed run leaves its reason in the task's result, as a runner's report does.
        let result = match (&run, spec.result) {
            (Run::Failed(error), None) => Some(json!({"error": error})),
            (_, result) => result,
        };
        sqlx::query(
            "INSERT INTO tasks (id, team_id, workspace_id, mission_id, parent_task_id, title, \
             description, status, mode, task_class, creation_source, depends_on, result, \
             output_requirement, created_at, updated_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&id)
        .bind(&self.team)
        .bind(&self.workspace)
        .bind(mission)
        .bind(spec.parent)
        .bind(spec.title)
        .bind(spec.description)
        .bind(spec.status)
        .bind(if spec.mode.is_empty() {
            "execution"
        } else {
            spec.mode
        })
        .bind(if spec.class.is_empty() {
            "work"
        } else {
            spec.class
        })
        .bind(if spec.mode == "planning" {
            "orchestrator"
        } else {
            "api"
        })
        .bind(serde_json::to_string(&spec.depends_on).expect("ids"))
        .bind(result.map(|r| r.to_string()))
        .bind(if spec.mode == "planning" {
            "auto"
        } else {
            "pr_required"
        })
        .bind(&at)
        .bind(ago((spec.minutes_ago - 20).max(1)))
        .execute(&mut **self.tx)
        .await?;
        let (status, action, pr, merged, error) = match run {
            Run::None => return Ok(id),
            Run::Live(action) => ("running", Some(action), false, false, None),
            Run::Done => ("completed", None, false, false, None),
            Run::Failed(error) => ("failed", None, false, false, Some(error)),
            Run::OpenPr => ("completed", None, true, false, None),
            Run::MergedPr => ("completed", None, true, true, None),
        };
        let pr_number = pr.then(|| {
            self.next_pr += 1;
            self.next_pr
        });
        let finished = status != "running";
        sqlx::query(
            "INSERT INTO workers (id, task_id, workspace_id, name, runner, branch, status, \
             current_action, pr_url, pr_number, merged_at, pr_lifecycle_status, error, \
             started_at, completed_at, created_at, updated_at) \
             VALUES (?, ?, ?, 'demo-runner', 'demo', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(new_id())
        .bind(&id)
        .bind(&self.workspace)
        .bind(format!("buildd/{}", &id[..8]))
        .bind(status)
        .bind(action)
        .bind(pr_number.map(|n| format!("https://github.com/{REPO}/pull/{n}")))
        .bind(pr_number)
        .bind(merged.then(|| ago((spec.minutes_ago - 30).max(1))))
        .bind(pr.then_some(if merged { "merged" } else { "ci_green" }))
        .bind(error)
        .bind(ago(spec.minutes_ago - 1))
        .bind(finished.then(|| ago((spec.minutes_ago - 20).max(1))))
        .bind(&at)
        .bind(&at)
        .execute(&mut **self.tx)
        .await?;
        if let Some(number) = pr_number {
            self.pull_request(mission, &id, number, merged, spec.minutes_ago)
                .await?;
        }
        Ok(id)
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
    ) -> Result<(), sqlx::Error> {
        let pr = new_id();
        let sha = format!("{:040x}", number);
        let opened = ago((minutes_ago - 20).max(1));
        sqlx::query(
            "INSERT INTO pull_requests (id, team_id, workspace_id, task_id, mission_id, number, \
             url, base_branch, head_branch, head_sha, files, files_state, state, merged_at, \
             merged_by, created_at, updated_at) \
             VALUES (?, ?, ?, ?, ?, ?, ?, 'main', ?, ?, ?, 'listed', ?, ?, ?, ?, ?)",
        )
        .bind(&pr)
        .bind(&self.team)
        .bind(&self.workspace)
        .bind(task)
        .bind(mission)
        .bind(number)
        .bind(format!("https://github.com/{REPO}/pull/{number}"))
        .bind(format!("buildd/{}", &task[..8]))
        .bind(&sha)
        .bind(json!([{"path": if merged { format!("src/feature_{number}.rs") } else { "src/payments/form.rs".into() },
                      "status": "added", "additions": 40, "deletions": 4}]).to_string())
        .bind(if merged { "merged" } else { "open" })
        .bind(merged.then(|| ago((minutes_ago - 30).max(1))))
        .bind(merged.then_some("auto-threshold"))
        .bind(&opened)
        .bind(&opened)
        .execute(&mut **self.tx)
        .await?;
        sqlx::query(
            "INSERT INTO check_runs (id, pr_id, head_sha, name, status, conclusion, details_url, \
             created_at) VALUES (?, ?, ?, 'build', 'completed', 'success', ?, ?)",
        )
        .bind(new_id())
        .bind(&pr)
        .bind(&sha)
        .bind(format!(
            "https://github.com/{REPO}/actions/runs/{}",
            9000 + number
        ))
        .bind(&opened)
        .execute(&mut **self.tx)
        .await?;
        Ok(())
    }

    async fn organizer(
        &mut self,
        mission: &str,
        title: &str,
        status: &str,
        plan: Value,
        minutes_ago: i64,
    ) -> Result<String, sqlx::Error> {
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

fn step(r: &str, title: &str, description: &str, depends_on: &[&str]) -> Value {
    json!({
        "ref": r, "title": title, "description": description,
        "dependsOn": depends_on, "outputRequirement": "pr_required", "kind": "engineering",
        "complexity": "normal"
    })
}

/// Seeds the demo when the database has no missions yet. Returns whether it did.
pub async fn seed_if_empty(db: &Db) -> Result<bool, sqlx::Error> {
    let mut tx = db.write().await?;
    let (missions,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM missions")
        .fetch_one(&mut *tx)
        .await?;
    if missions > 0 {
        return Ok(false);
    }
    seed(&mut tx).await?;
    tx.commit().await?;
    Ok(true)
}

/// A new admin key of the demo team, for the dashboard link.
pub async fn dashboard_key(db: &Db) -> Result<String, sqlx::Error> {
    let mut tx = db.write().await?;
    let team = ensure_team(&mut tx, DEMO_TEAM).await?;
    let key = create_key(&mut tx, &team, &AccountLevel::Admin, "dashboard link").await?;
    tx.commit().await?;
    Ok(key)
}

async fn seed(tx: &mut Tx) -> Result<(), sqlx::Error> {
    let team = ensure_team(tx, DEMO_TEAM).await?;
    let workspace = new_id();
    sqlx::query(
        "INSERT INTO workspaces (id, team_id, name, repo, local_path, created_at, updated_at) \
         VALUES (?, ?, 'storefront', ?, 'main', ?, ?)",
    )
    .bind(&workspace)
    .bind(&team)
    .bind(REPO)
    .bind(ago(60 * 24 * 30))
    .bind(ago(60 * 24 * 30))
    .execute(&mut **tx)
    .await?;
    let mut s = Seeder {
        tx,
        team,
        workspace,
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

    // Work in flight: merged, awaiting merge, running, queued behind it, cancelled.
    let m = s
        .mission(
            "Checkout redesign",
            "Rebuild the checkout as three short steps, keeping every payment provider working.",
            "active",
            2,
            60 * 24 * 3,
        )
        .await?;
    // Payment code merges only by a person's hand.
    sqlx::query("UPDATE missions SET merge_policy = ? WHERE id = ?")
        .bind(
            json!({"tier": "auto-threshold",
                   "threshold": {"maxLines": 800, "denyPaths": ["src/payments/"]}})
            .to_string(),
        )
        .bind(&m)
        .execute(&mut **s.tx)
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

    // Done.
    let m = s
        .mission(
            "Search indexing",
            "Index products in the background so search results are never stale by more than a minute.",
            "completed",
            0,
            60 * 24 * 12,
        )
        .await?;
    for title in [
        "Add the indexing queue",
        "Index on product change",
        "Backfill the index",
    ] {
        s.task(
            &m,
            TaskSpec {
                title,
                description: "Search indexing work.",
                status: "completed",
                minutes_ago: 60 * 24 * 10,
                ..Default::default()
            },
            Run::MergedPr,
        )
        .await?;
    }

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
    let schedule = new_id();
    sqlx::query(
        "INSERT INTO schedules (id, team_id, workspace_id, name, cron_expression, task_template, \
         enabled, next_run_at, last_run_at, total_runs, created_at, updated_at) \
         VALUES (?, ?, ?, 'Mission: Nightly data export', '0 * * * *', ?, 1, ?, ?, 12, ?, ?)",
    )
    .bind(&schedule)
    .bind(&s.team)
    .bind(&s.workspace)
    .bind(
        json!({
            "title": "Mission: Nightly data export",
            "mode": "planning",
            "priority": 0,
            "context": {"heartbeat": true}
        })
        .to_string(),
    )
    .bind(iso(Utc::now() + Duration::minutes(40)))
    .bind(ago(20))
    .bind(ago(60 * 24 * 20))
    .bind(ago(20))
    .execute(&mut **s.tx)
    .await?;
    sqlx::query("UPDATE missions SET schedule_id = ? WHERE id = ?")
        .bind(&schedule)
        .bind(&m)
        .execute(&mut **s.tx)
        .await?;
    Ok(())
}
