//! A minimal HTTP/1.1 client over a loopback socket, so tests and benchmarks reach the API
//! as any client would without pulling in an HTTP client stack.

use serde_json::Value;
use std::io::BufRead;
use std::net::SocketAddr;

/// Sends `request` to `addr`; returns the status and the JSON body (null when there is none).
pub(crate) async fn send(addr: SocketAddr, request: String) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("send");
    // The request asks the server to close, so the response ends with the stream.
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.expect("response");
    let (status, body) = read_response(&mut bytes.as_slice());
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// The request's text; no Authorization header when `key` is empty.
pub(crate) fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: &str,
    body: Option<&Value>,
) -> String {
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = if key.is_empty() {
        String::new()
    } else {
        format!("Authorization: Bearer {key}\r\n")
    };
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Reads one response (Content-Length or chunked) from `reader`.
pub fn read_response(reader: &mut impl BufRead) -> (u16, Vec<u8>) {
    let mut line = String::new();
    reader.read_line(&mut line).expect("status line");
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status code");
    let mut length = None;
    let mut chunked = false;
    loop {
        line.clear();
        reader.read_line(&mut line).expect("header");
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let lower = header.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let mut body = Vec::new();
    // These never carry a body, whatever their headers say.
    if status == 304 || status == 204 {
        return (status, body);
    }
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line).expect("chunk size");
            let size = usize::from_str_radix(line.trim(), 16).expect("chunk size");
            if size == 0 {
                reader.read_line(&mut line).ok();
                break;
            }
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).expect("chunk");
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = length {
        body.resize(n, 0);
        reader.read_exact(&mut body).expect("body");
    } else {
        reader.read_to_end(&mut body).expect("body");
    }
    (status, body)
}
