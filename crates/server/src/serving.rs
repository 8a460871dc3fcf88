//! Serving on a socket that faces the network: a client gets a bounded time to send its
//! request head and to keep an idle connection, at most `max_connections` are open at once
//! (the rest wait in the kernel's backlog, so a flood of slow clients cannot use up the
//! process's files), and shutdown stops accepting, lets the requests in flight finish for
//! a bounded time, then returns. Every request carries the address the server listens on
//! ([`Listening`]). Uses nothing of the crate but the router it is given.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The bounds of a served socket.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a client may take to send a request head, and keep a connection idle
    /// between requests.
    pub header_read: Duration,
    /// Connections open at once.
    pub max_connections: usize,
    /// How long shutdown waits for requests in flight.
    pub drain: Duration,
}

/// The address the server listens on, in every request's extensions: a server on loopback
/// only expects loopback names in `Host` (the MCP endpoint refuses others, against DNS
/// rebinding).
#[derive(Clone, Copy, Debug)]
pub struct Listening(pub SocketAddr);

/// Files kept free for the database, the listener and outgoing connections.
const FILES_KEPT_FREE: u64 = 64;

impl Limits {
    /// Ten seconds for a request head, ten to drain, and connections up to the process's
    /// open-file limit (raised to its hard limit where allowed) less a reserve; `share`
    /// divides that among the files each connection may use (2 when each may also open
    /// one to an upstream).
    pub fn for_this_process(share: u64) -> Self {
        let files = raise_file_limit().unwrap_or(1024);
        let max = files.saturating_sub(FILES_KEPT_FREE).max(16) / share.max(1);
        Self {
            header_read: Duration::from_secs(10),
            max_connections: usize::try_from(max).unwrap_or(usize::MAX),
            drain: Duration::from_secs(10),
        }
    }
}

/// Raises the soft limit on open files to the hard one; the soft limit in force after.
#[cfg(unix)]
fn raise_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some(limit.rlim_cur)
}

#[cfg(not(unix))]
fn raise_file_limit() -> Option<u64> {
    None
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let router = match listener.local_addr() {
        Ok(addr) => router.layer(axum::Extension(Listening(addr))),
        Err(_) => router,
    };
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore stays open"),
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of files or a connection reset before it was taken: try again.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let connection = builder.serve_connection(
            TokioIo::new(stream),
            TowerToHyperService::new(router.clone()),
        );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(limits.drain) => {
            tracing::warn!("stopped with requests still in flight after {:?}", limits.drain);
        }
    }
}
