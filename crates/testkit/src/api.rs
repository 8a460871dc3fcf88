//! What every harness reaches the Buildd API through: the router in memory (the server's
//! own tests) or a loopback socket (browser tests and benchmarks). The worker verbs are
//! written once on top of it.

use axum::http::StatusCode;
use serde_json::Value;

/// A status and the JSON answer.
pub type Answer = (StatusCode, Value);

// Every harness is a concrete type, so the futures' Send-ness is known where they are
// spawned; no bound needs to be spelled out.
#[allow(async_fn_in_trait)]
pub trait Api {
    /// The key of a worker account of the harness's team, for playing a runner.
    fn worker_key(&self) -> &str;

    /// Sends `method path` with `key` (none when empty) and an optional JSON body.
    async fn send(&self, method: &str, path: &str, key: &str, body: Option<Value>) -> Answer;
}
