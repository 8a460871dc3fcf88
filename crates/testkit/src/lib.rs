//! The harness of the server's tests, the browser tests and the benchmarks: the worker
//! verbs over any way of reaching the API, a real Buildd API server on a loopback port with
//! a temporary SQLite database and the release dashboard, and headless Chromium driven over
//! WebDriver.

mod api;
mod browser;
mod http;
mod server;
mod worker_verbs;

pub use api::{Answer, Api};
pub use axum::http::StatusCode;
pub use browser::Browser;
pub use http::read_response;
pub use server::{dist_dir, TestServer};
pub use worker_verbs::{WorkerVerbs, RUNNER};
