//! The demo's means: a seeder that writes a mission, a task with the worker that ran it and
//! the PR it opened, an organizer run with its plan, and an agent's note, each dated minutes
//! ago so the demo always looks recent.

use super::costs::{partial, run_usage, RunKind};
use crate::db::Tx;
use crate::error::ApiResult;
use crate::store::missions::{self, NewMission};
use crate::store::notes::{insert_note, NewNote};
use crate::store::prs::{self, insert_check, NewPr};
use crate::store::tasks::{self, NewTask};
use crate::store::workers::{self, NewWorker};
use crate::time::iso;
use buildd_core::pull_request::CheckRun;
use buildd_core::{
    AuthorType, CheckConclusion, CheckStatus, MissionStatus, NoteKind, PrLifecycle, TaskClass,
    TaskMode, TaskStatus, WorkerStatus,
};
use chrono::{Duration, Utc};
use serde_json::{json, Value};

pub(super) const REPO: &str = "acme/storefront";

pub(super) fn ago(minutes: i64) -> String {
    iso(Utc::now() - Duration::minutes(minutes))
}

pub(super) struct Seeder<'a> {
    pub(super) tx: &'a mut Tx,
    pub(super) team: String,
    pub(super) workspace: String,
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
pub(super) struct NoteSpec<'a> {
    pub(super) kind: NoteKind,
    pub(super) title: &'a str,
    pub(super) body: &'a str,
    pub(super) options: &'a [&'a str],
    pub(super) default: Option<&'a str>,
    pub(super) minutes_ago: i64,
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

impl<'a> Seeder<'a> {
    /// Seeds into `workspace` of `team`; its PRs are numbered from 101.
    pub(super) fn new(tx: &'a mut Tx, team: String, workspace: String) -> Self {
        Self {
            tx,
            team,
            workspace,
            next_pr: 100,
        }
    }

    /// An agent's note on `mission`'s feed; a question stays open for a person.
    pub(super) async fn note(&mut self, mission: &str, n: NoteSpec<'_>) -> ApiResult<()> {
        let status = n.kind.initial_status();
        let note = NewNote {
            body: Some(n.body.into()),
            default_choice: n.default.map(str::to_string),
            options: n.options.iter().map(|o| o.to_string()).collect(),
            created_at: Some(ago(n.minutes_ago)),
            ..NewNote::new(AuthorType::Agent, n.kind, n.title, status)
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
    pub(super) async fn mission_with(
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
        let planning = TaskMode::parse(spec.mode) == TaskMode::Planning;
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
            pr_lifecycle_status: pr.then_some(if merged {
                PrLifecycle::Merged
            } else {
                PrLifecycle::CiGreen
            }),
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
            status: CheckStatus::Completed,
            conclusion: Some(CheckConclusion::Success),
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
        let status_is = |s: TaskStatus| TaskStatus::parse(status) == s;
        let result = status_is(TaskStatus::Completed).then(|| {
            json!({
                "summary": format!("Planned {steps} steps"),
                "structuredOutput": {
                    "plan": plan,
                    "summary": if steps == 0 { "Nothing needs doing right now." } else { "Ship in small, reviewable steps." },
                    "missionComplete": false
                }
            })
        });
        let run = if status_is(TaskStatus::Failed) {
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
