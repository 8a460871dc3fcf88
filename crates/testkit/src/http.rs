//! A minimal HTTP/1.1 GET over a loopback socket, so tests and benchmarks read the API as
//! any client would without pulling in an HTTP client stack.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};

/// GETs `path` with `key`; returns the status and the JSON body.
pub fn get_json(addr: SocketAddr, path: &str, key: &str) -> (u16, Value) {
    send_json(addr, "GET", path, key, None)
}

/// Sends `method path` with `key` and an optional JSON body; returns the status and body.
pub fn send_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut reader = BufReader::new(stream);
    let (status, body) = read_response(&mut reader);
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
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
