//! The harness of the browser tests and the benchmarks: a real Buildd API server on a
//! loopback port with a temporary SQLite database and the release dashboard, and headless
//! Chromium driven over WebDriver.

mod browser;
mod http;
mod server;

pub use browser::Browser;
pub use http::{get_json, read_response, send_json};
pub use server::{dist_dir, TestServer};
