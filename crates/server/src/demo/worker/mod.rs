//! A scripted worker for demos and tests: it claims tasks over the HTTP worker protocol,
//! reports progress and what it spent, and completes them — planning runs with a multi-wave plan, execution
//! tasks with a pull request. It speaks only HTTP, so it works against any Buildd API.

mod client;
mod script;
mod special;

pub use client::WorkerClient;
pub use script::{demo_plan, organizer_output, subject_of};

use super::costs::{partial, run_usage, RunKind};
use crate::db::Db;
use crate::error::ApiResult;
use crate::store::accounts::{accounts_named, create_key, delete_account, ensure_team};
use crate::store::tasks::requeue_claims_of;
use crate::store::workers::fail_unfinished_of_account;
use crate::time::now;
use buildd_core::spend::Usage;
use buildd_core::{ClaimResponse, ClaimedWorker, OutputRequirement, TaskClass, TaskMode};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A stand-in commit id for the worker's PR head.
fn head_sha(worker_id: &str) -> String {
    worker_id.replace('-', "").chars().take(40).collect()
}

/// The account name of the scripted worker's key in the demo team.
pub const SCRIPTED_WORKER_ACCOUNT: &str = "Scripted worker";

pub struct ScriptedWorker {
    client: WorkerClient,
    /// Time between a task's steps, and between claims.
    pace: Duration,
    next_pr: AtomicI64,
}

impl ScriptedWorker {
    pub fn new(client: WorkerClient, pace: Duration) -> Arc<Self> {
        let seed = chrono::Utc::now().timestamp() % 900;
        Arc::new(Self {
            client,
            pace,
            next_pr: AtomicI64::new(100 + seed),
        })
    }

    /// Claims and works tasks until the process ends.
    pub async fn run(self: Arc<Self>) {
        loop {
            match self.claim_once().await {
                Ok(claimed) => {
                    for c in claimed {
                        let me = self.clone();
                        tokio::spawn(async move {
                            if let Err(e) = me.work(c).await {
                                tracing::warn!("scripted worker: {e}");
                            }
                        });
                    }
                }
                Err(e) => tracing::warn!("scripted worker: claim failed: {e}"),
            }
            tokio::time::sleep(self.pace).await;
        }
    }

    /// One claim of up to two tasks.
    pub async fn claim_once(&self) -> Result<Vec<ClaimedWorker>, String> {
        let (status, body) = self
            .client
            .send(
                "POST",
                "/api/workers/claim",
                json!({"runner": "scripted", "maxTasks": 2}),
            )
            .await?;
        if status != 200 {
            return Err(format!("claim answered {status}: {body}"));
        }
        let answer: ClaimResponse = serde_json::from_value(body).map_err(|e| e.to_string())?;
        Ok(answer.workers)
    }

    /// Works one claimed task through to its report.
    pub async fn work(&self, claimed: ClaimedWorker) -> Result<(), String> {
        if self.special(&claimed).await? {
            return Ok(());
        }
        let planning = claimed.task.mode == TaskMode::Planning;
        let steps: [&str; 2] = if planning {
            ["Reading the mission brief", "Drafting the plan"]
        } else {
            ["Reading the code", "Making the change"]
        };
        let reviewing = claimed.task.context.get("reviewerFor").is_some();
        let kind = match (planning, reviewing) {
            (true, _) => RunKind::Planning,
            (false, true) => RunKind::Review,
            (false, false) => RunKind::Execution,
        };
        // Its spend grows with each report, as a runner's running total does.
        let usage = run_usage(&claimed.task.id, kind);
        let mut heard = Vec::new();
        for (i, action) in steps.iter().enumerate() {
            let step = json!({"type": "phase", "label": action,
                              "ts": chrono::Utc::now().timestamp_millis()});
            let mut body = json!({"currentAction": action, "appendMilestones": [step],
                                  "turns": i + 1});
            spent(
                &mut body,
                partial(usage, i as u64 + 1, steps.len() as u64 + 1),
            );
            if i == 0 {
                body["status"] = json!("running");
            }
            let answer = self.report(&claimed.id, body).await?;
            heard.extend(answer["instructions"].as_str().map(str::to_string));
            tokio::time::sleep(self.pace).await;
        }
        let mut done = if reviewing {
            // A reviewer that finds the change sound: the server decides what its approval may merge.
            json!({
                "status": "completed",
                "summary": "Reviewed the PR.",
                "structuredOutput": {"verdict": "approve", "confidence": 0.82,
                    "summary": "The change does what the task asks and its tests cover it."},
            })
        } else if planning {
            let feedback = claimed
                .task
                .context
                .get("planFeedback")
                .and_then(Value::as_str);
            let rounds = self.approved_rounds(&claimed).await?;
            let output = organizer_output(subject_of(&claimed.task.title), rounds, feedback);
            json!({
                "status": "completed",
                "summary": output["summary"],
                "structuredOutput": output,
            })
        } else {
            self.execution_report(&claimed, &heard)
        };
        spent(&mut done, usage);
        let pr = done["prNumber"].as_i64();
        self.report(&claimed.id, done).await?;
        // CI runs on the PR's head commit and passes; the merge policy decides the rest.
        if let (Some(n), Some(ws)) = (pr, claimed.task.workspace.as_ref()) {
            tokio::time::sleep(self.pace).await;
            let check = json!({"workspaceId": ws.id, "headSha": head_sha(&claimed.id),
                               "name": "test", "status": "completed", "conclusion": "success"});
            let (status, answer) = self
                .client
                .send("POST", &format!("/api/prs/{n}/checks"), check)
                .await?;
            if status != 201 {
                return Err(format!("check run for PR #{n} answered {status}: {answer}"));
            }
        }
        Ok(())
    }

    /// How many of the mission's plans were approved (their steps filed) before this run.
    async fn approved_rounds(&self, claimed: &ClaimedWorker) -> Result<usize, String> {
        let Some(mission) = &claimed.task.mission_id else {
            return Ok(0);
        };
        let (status, detail) = self
            .client
            .send("GET", &format!("/api/missions/{mission}"), Value::Null)
            .await?;
        if status != 200 {
            return Err(format!("mission {mission} answered {status}: {detail}"));
        }
        let tasks = detail["tasks"].as_array().cloned().unwrap_or_default();
        let filed_from = |run: &Value| tasks.iter().any(|t| t["parentTaskId"] == run["id"]);
        Ok(tasks
            .iter()
            .filter(|t| t["mode"] == TaskMode::Planning.as_str() && filed_from(t))
            .count())
    }

    fn execution_report(&self, claimed: &ClaimedWorker, heard: &[String]) -> Value {
        let mut summary = format!("Done: {}.", claimed.task.title);
        for h in heard {
            summary.push_str(&format!(" Followed the instruction \"{h}\"."));
        }
        let repo = claimed.task.workspace.as_ref().and_then(|w| w.repo.clone());
        let task = &claimed.task;
        let wants_pr = task.task_class != Some(TaskClass::Bookkeeping)
            && task.output_requirement.as_deref() != Some(OutputRequirement::None.as_str());
        match repo.filter(|_| wants_pr) {
            Some(repo) => {
                // A fix for a reviewer pushes to the PR it fixes.
                let n = claimed
                    .task
                    .context
                    .get("prNumber")
                    .and_then(Value::as_i64)
                    .unwrap_or_else(|| self.next_pr.fetch_add(1, Ordering::Relaxed));
                let slug = claimed
                    .branch
                    .rsplit('/')
                    .next()
                    .unwrap_or("change")
                    .to_string();
                json!({"status": "completed", "summary": summary,
                "prUrl": format!("https://github.com/{repo}/pull/{n}"), "prNumber": n,
                "baseBranch": "main", "headBranch": claimed.branch,
                "headSha": head_sha(&claimed.id),
                "commitCount": 2, "filesChanged": 2, "linesAdded": 78, "linesRemoved": 0,
                "files": [
                    {"path": format!("src/{slug}.rs"), "status": "added", "additions": 48, "deletions": 0,
                     "patch": "+// the change"},
                    {"path": format!("tests/{slug}.rs"), "status": "added", "additions": 30, "deletions": 0,
                     "patch": "+// its tests"}
                ]})
            }
            None => json!({"status": "completed", "summary": summary}),
        }
    }

    async fn report(&self, worker: &str, body: Value) -> Result<Value, String> {
        let (status, answer) = self
            .client
            .send("PATCH", &format!("/api/workers/{worker}"), body)
            .await?;
        if status != 200 {
            return Err(format!("report on {worker} answered {status}: {answer}"));
        }
        Ok(answer)
    }
}

/// Adds `usage`, the run's totals so far, to a report.
fn spent(report: &mut Value, usage: Usage) {
    report["costUsd"] = json!(usage.cost.as_f64());
    report["inputTokens"] = json!(usage.input_tokens);
    report["outputTokens"] = json!(usage.output_tokens);
}

/// A fresh worker key for the scripted worker in `team`. Tasks the previous run held when
/// it stopped go back to pending, so nothing stays claimed by a worker that is gone.
pub async fn fresh_key(db: &Db, team: &str) -> ApiResult<String> {
    let mut tx = db.write().await?;
    let team_id = ensure_team(&mut tx, team).await?;
    let at = now();
    for account in accounts_named(&mut tx, &team_id, SCRIPTED_WORKER_ACCOUNT).await? {
        fail_unfinished_of_account(&mut tx, &account, "The scripted worker stopped", &at).await?;
        requeue_claims_of(&mut tx, &account, &at).await?;
        delete_account(&mut tx, &account).await?;
    }
    let key = create_key(
        &mut tx,
        &team_id,
        &buildd_core::AccountLevel::Worker,
        SCRIPTED_WORKER_ACCOUNT,
    )
    .await?;
    tx.commit().await?;
    Ok(key)
}
