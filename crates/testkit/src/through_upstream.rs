//! This server in its upstream mode on a loopback port: the release dashboard, with every
//! `/api/*` request forwarded to an upstream Buildd (in tests, the recorded one).

use crate::server::dist_dir;
use buildd_server::upstream::{self, Upstream, UpstreamOptions};
use std::net::SocketAddr;

/// Stopped when dropped.
pub struct ThroughUpstream {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for ThroughUpstream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl ThroughUpstream {
    pub async fn start(upstream_url: &str) -> Self {
        let upstream = Upstream::new(&UpstreamOptions::new(upstream_url)).expect("an upstream");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let router = upstream::app(upstream, Some(&dist_dir()));
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self { addr, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}
