//! The harness of the server's tests, the browser tests and the benchmarks: the worker
//! verbs over any way of reaching the API, a real Buildd API server on a loopback port with
//! a temporary SQLite database and the release dashboard, the same dashboard in front of
//! Buildd's recorded answers (this server's upstream mode), headless Chromium driven
//! over WebDriver, and simulated runners against a server process (`agents`).

pub mod agents;
pub mod agents_rounds;
mod api;
mod audit;
mod browser;
mod http;
pub mod pictures_bench;
pub mod postgres;
mod recorded;
mod server;
mod through_upstream;
mod worker_verbs;

pub use api::{Answer, Api};
pub use audit::{axe_script, cumulative, Shift, Violation};
pub use axum::http::StatusCode;
pub use browser::Browser;
pub use http::read_response;
pub use postgres::test_db;
pub use recorded::{Received, RecordedBuildd};
pub use server::{dist_dir, is_chunk, TestServer};
pub use through_upstream::ThroughUpstream;
pub use worker_verbs::{WorkerVerbs, RUNNER};
