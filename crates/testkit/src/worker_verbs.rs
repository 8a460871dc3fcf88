//! A runner's side of the worker protocol, for any harness that reaches the API: claim a
//! task, report on it, complete or fail it.

use crate::api::{Answer, Api};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// The runner name claims are made under.
pub const RUNNER: &str = "test-runner";

#[allow(async_fn_in_trait)]
pub trait WorkerVerbs: Api {
    /// Claims `task` with the worker key; returns the worker id.
    async fn claim_task(&self, task: &str) -> String {
        let claim = json!({"runner": RUNNER, "taskId": task});
        let (status, body) = self
            .send("POST", "/api/workers/claim", self.worker_key(), Some(claim))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let worker = &body["workers"][0];
        assert_eq!(worker["taskId"], task, "claim of {task}: {body}");
        worker["id"].as_str().unwrap().to_string()
    }

    /// Sends a worker report with the worker key; returns the answer, whatever it is.
    async fn report(&self, worker: &str, body: Value) -> Answer {
        let path = format!("/api/workers/{worker}");
        self.send("PATCH", &path, self.worker_key(), Some(body))
            .await
    }

    /// Sends a worker report the server must accept; returns its answer.
    async fn report_ok(&self, worker: &str, body: Value) -> Value {
        let (status, answer) = self.report(worker, body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        answer
    }

    /// Claims `task` and completes it with `body` merged into `{status: completed}`.
    async fn complete_task(&self, task: &str, mut body: Value) -> Answer {
        let worker = self.claim_task(task).await;
        body["status"] = json!("completed");
        self.report(&worker, body).await
    }

    /// Claims `task` and completes it with `structured_output` (a plan, a review verdict),
    /// which the server must accept.
    async fn complete_with_output(&self, task: &str, structured_output: Value) {
        let output = json!({"summary": "Planned", "structuredOutput": structured_output});
        let (status, body) = self.complete_task(task, output).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    /// Claims `task` and reports it failed with `error`, which the server must accept.
    async fn fail_task(&self, task: &str, error: &str) {
        let worker = self.claim_task(task).await;
        self.report_ok(&worker, json!({"status": "failed", "error": error}))
            .await;
    }
}

impl<T: Api + ?Sized> WorkerVerbs for T {}
