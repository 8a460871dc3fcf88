//! The demo tasks the scripted worker works apart from the rest (`context.demo`): a long
//! run whose timeline moves for a while, and an agent that stops to ask a person and goes
//! on with the answer it reads from its reports' instructions.

use super::ScriptedWorker;
use crate::demo::loose_tasks::{ASKS, LONG_RUN};
use buildd_core::ClaimedWorker;
use serde_json::{json, Value};

/// How many steps the long run takes.
const LONG_STEPS: u32 = 40;

fn milestone(kind: &str, label: &str) -> Value {
    json!({"type": kind, "label": label, "ts": chrono::Utc::now().timestamp_millis()})
}

impl ScriptedWorker {
    /// Works `claimed` if it is one of the demo's special tasks; `false` when it is not.
    pub(super) async fn special(&self, claimed: &ClaimedWorker) -> Result<bool, String> {
        match claimed.task.context.get("demo").and_then(Value::as_str) {
            Some(LONG_RUN) => self.long_run(claimed).await.map(|()| true),
            Some(ASKS) => self.asks(claimed).await.map(|()| true),
            _ => Ok(false),
        }
    }

    async fn long_run(&self, claimed: &ClaimedWorker) -> Result<(), String> {
        let started = milestone("checkpoint", "Session started");
        self.report(
            &claimed.id,
            json!({"status": "running", "currentAction": "Reading the CI logs",
                                        "appendMilestones": [started], "turns": 1}),
        )
        .await?;
        const STAGES: [&str; 4] = [
            "Timing each CI step",
            "Reading the build graph",
            "Profiling the test run",
            "Writing up the findings",
        ];
        for step in 1..=LONG_STEPS {
            tokio::time::sleep(self.pace).await;
            let stage = STAGES[(step as usize * STAGES.len() / (LONG_STEPS as usize + 1)).min(3)];
            let action = format!("{stage} ({step}/{LONG_STEPS})");
            let kind = if step % 10 == 0 { "phase" } else { "action" };
            let report = json!({"currentAction": action, "turns": step + 1,
                                "appendMilestones": [milestone(kind, &action)]});
            // A person's Stop answers 409 here, which ends the run.
            self.report(&claimed.id, report).await?;
        }
        let done = json!({"status": "completed", "turns": LONG_STEPS + 2,
            "summary": "The build spends 9 of its 14 minutes compiling tests twice; caching the test build saves most of it.",
            "appendMilestones": [milestone("checkpoint", "Task completed")],
            "resultMeta": {"terminalReason": "end_turn"}});
        self.report(&claimed.id, done).await.map(drop)
    }

    async fn asks(&self, claimed: &ClaimedWorker) -> Result<(), String> {
        let question = json!({"type": "question", "prompt": "Which cache should the search use?",
                              "options": [{"label": "Redis", "description": "Already running for sessions"},
                                          {"label": "In-process LRU"}, {"label": "No cache"}]});
        self.report(&claimed.id, json!({"status": "running", "currentAction": "Reading the search code",
                                        "appendMilestones": [milestone("checkpoint", "Session started")]}))
            .await?;
        tokio::time::sleep(self.pace).await;
        self.report(&claimed.id, json!({"status": "waiting_input", "currentAction": "Waiting for an answer",
                                        "waitingFor": question,
                                        "appendMilestones": [milestone("status", "Question: which cache")]}))
            .await?;
        // It waits, holding its seat, until a person answers; the answer comes back with
        // a report, as Buildd's runner receives instructions.
        let answer = loop {
            tokio::time::sleep(self.pace).await;
            let heard = self
                .report(&claimed.id, json!({"status": "waiting_input"}))
                .await?;
            if let Some(text) = heard["instructions"].as_str() {
                break text.to_string();
            }
        };
        let action = format!("Adding the cache: {answer}");
        self.report(
            &claimed.id,
            json!({"status": "running", "currentAction": action,
                                        "appendMilestones": [milestone("phase", &action)]}),
        )
        .await?;
        tokio::time::sleep(self.pace).await;
        let done = json!({"status": "completed", "summary": format!("Cached the product search as answered: {answer}."),
                          "appendMilestones": [milestone("checkpoint", "Task completed")]});
        self.report(&claimed.id, done).await.map(drop)
    }
}
