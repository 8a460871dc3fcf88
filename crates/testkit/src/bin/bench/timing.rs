//! Timing requests: GETs over one keep-alive connection, and percentiles of the times.

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::Instant;

/// The value at `p` (0 to 1) of `sorted`.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// Sends `requests` GETs of `path` (with `headers`) to `addr` over one keep-alive
/// connection, after ten untimed ones; `before` runs untimed before each. The times in ms,
/// sorted, and the last body's size.
pub fn timed_gets_at(
    addr: std::net::SocketAddr,
    key: &str,
    path: &str,
    headers: &str,
    requests: usize,
    mut before: impl FnMut(),
) -> (Vec<f64>, usize) {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n{headers}\r\n"
    );
    let mut times = Vec::new();
    let mut size = 0;
    for i in 0..requests + 10 {
        before();
        let start = Instant::now();
        writer.write_all(request.as_bytes()).unwrap();
        let (status, body) = buildd_testkit::read_response(&mut reader);
        let elapsed = start.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(status, 200);
        size = body.len();
        if i >= 10 {
            times.push(elapsed);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (times, size)
}
