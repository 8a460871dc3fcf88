//! The bounds of a served socket, over real connections: slow request heads and idle
//! connections are closed, connections beyond the cap wait, and shutdown drains what is in
//! flight, for a bounded time.

use axum::routing::get;
use axum::Router;
use buildd_server::serving::{serve, Limits};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Far longer than any bound below: a test that waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(20);

fn router() -> Router {
    Router::new().route("/", get(|| async { "ok" })).route(
        "/slow",
        get(|| async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            "slow ok"
        }),
    )
}

struct Served {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

async fn start(limits: Limits) -> Served {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(serve(listener, router(), limits, async {
        let _ = stopped.await;
    }));
    Served {
        addr,
        stop: Some(stop),
        task,
    }
}

fn limits(header_read_ms: u64, max_connections: usize) -> Limits {
    Limits {
        header_read: Duration::from_millis(header_read_ms),
        max_connections,
        drain: Duration::from_millis(500),
    }
}

/// Reads until the server closes the connection; what it sent.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut got))
        .await
        .expect("the server closes the connection")
        .unwrap_or_default();
    String::from_utf8_lossy(&got).into_owned()
}

async fn get_once(addr: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    until_closed(&mut stream).await
}

#[tokio::test]
async fn a_request_head_that_never_ends_is_closed() {
    let served = start(limits(300, 64)).await;
    let mut slow = TcpStream::connect(served.addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let answer = until_closed(&mut slow).await;
    assert!(!answer.contains("200 OK"), "{answer}");
    // The server goes on answering others.
    assert!(get_once(served.addr, "/").await.contains("200 OK"));
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed() {
    let served = start(limits(300, 64)).await;
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let answer = until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_for_a_free_one() {
    let served = start(limits(60_000, 1)).await;
    // Holds the only connection with a head it never finishes.
    let mut holder = TcpStream::connect(served.addr).await.unwrap();
    holder.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    let waiting = tokio::spawn(get_once(served.addr, "/"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiting.is_finished(), "answered beyond the cap");
    drop(holder);
    let answer = tokio::time::timeout(PATIENCE, waiting)
        .await
        .expect("answered once the connection is free")
        .unwrap();
    assert!(answer.contains("200 OK"), "{answer}");
}

#[tokio::test]
async fn shutdown_finishes_the_request_in_flight_and_stops_accepting() {
    let mut served = start(limits(60_000, 64)).await;
    let in_flight = tokio::spawn(get_once(served.addr, "/slow"));
    // A client that never finishes its head does not hold shutdown past the drain bound.
    let mut stuck = TcpStream::connect(served.addr).await.unwrap();
    stuck.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    served.stop.take().unwrap().send(()).unwrap();
    let answer = tokio::time::timeout(PATIENCE, in_flight)
        .await
        .unwrap()
        .unwrap();
    assert!(answer.contains("slow ok"), "{answer}");
    tokio::time::timeout(PATIENCE, served.task)
        .await
        .expect("serve returns after draining")
        .unwrap();
    assert!(
        TcpStream::connect(served.addr).await.is_err(),
        "still accepting"
    );
}

#[test]
fn the_process_limits_leave_files_free() {
    let limits = Limits::for_this_process(2);
    assert!(limits.max_connections >= 8);
    let one = Limits::for_this_process(1);
    assert!(one.max_connections >= limits.max_connections * 2 - 1);
}
