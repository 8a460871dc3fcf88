//! DNS rebinding protection, as the MCP transport asks: a request that carries an `Origin`
//! must come from this server's own origin (the host and port of its `Host`), and a server
//! listening on loopback answers only loopback names in `Host`. Otherwise a page of another
//! site, its name pointed at this machine, could call the endpoint from a browser. Buildd's
//! runner sends no `Origin` and names the server as it reaches it.

use crate::serving::Listening;
use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::net::IpAddr;

/// How much of a refused header is quoted back.
const QUOTED: usize = 100;

fn refused(message: String) -> Response {
    (StatusCode::FORBIDDEN, Json(json!({"error": message}))).into_response()
}

fn quoted(value: &str) -> String {
    value.chars().take(QUOTED).collect()
}

pub async fn guard(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        if !same_origin(origin, host) {
            return refused(format!(
                "Origin: {} is not this server's origin (Host: {}); the MCP endpoint answers \
                 no page of another origin",
                quoted(origin),
                quoted(host)
            ));
        }
    }
    let on_loopback = request
        .extensions()
        .get::<Listening>()
        .is_some_and(|Listening(addr)| addr.ip().is_loopback());
    if on_loopback && !is_loopback_name(host) {
        return refused(format!(
            "Host: {} is not a loopback name, and this server listens on loopback only",
            quoted(host)
        ));
    }
    next.run(request).await
}

/// `host[:port]` split; the port as written, if any.
fn split_host(authority: &str) -> Option<(String, Option<u16>)> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (inner, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (format!("[{}]", inner.to_ascii_lowercase()), port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_ascii_lowercase(), Some(port)),
            None => (authority.to_ascii_lowercase(), None),
        }
    };
    if host.is_empty() || host.contains(['/', '@', ' ']) {
        return None;
    }
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    Some((host, port))
}

/// Whether `origin` (`scheme://host[:port]`) names the host and port of `host`; a port left
/// out is the scheme's default on both sides.
fn same_origin(origin: &str, host: &str) -> bool {
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return false,
    };
    match (split_host(authority), split_host(host)) {
        (Some((a, a_port)), Some((b, b_port))) => {
            a == b && a_port.unwrap_or(default) == b_port.unwrap_or(default)
        }
        _ => false,
    }
}

/// `localhost`, an address in 127.0.0.0/8, or `[::1]`, with or without a port.
fn is_loopback_name(host: &str) -> bool {
    let Some((name, _)) = split_host(host) else {
        return false;
    };
    if name == "localhost" {
        return true;
    }
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_this_server_only_with_its_host_and_port() {
        assert!(same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(same_origin("https://MC.example", "mc.example"));
        assert!(same_origin("https://mc.example", "mc.example:443"));
        assert!(same_origin("http://[::1]:8080", "[::1]:8080"));
        assert!(!same_origin("http://127.0.0.1:8081", "127.0.0.1:8080"));
        assert!(!same_origin("https://mc.example", "mc.example:80"));
        assert!(!same_origin("http://evil.example", "127.0.0.1:8080"));
        assert!(!same_origin("null", "127.0.0.1:8080"));
        assert!(!same_origin("file://", "127.0.0.1:8080"));
        assert!(!same_origin("http://127.0.0.1:8080", ""));
    }

    #[test]
    fn loopback_names_are_localhost_and_loopback_addresses() {
        for name in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:8080",
            "127.1.2.3",
            "[::1]:80",
        ] {
            assert!(is_loopback_name(name), "{name}");
        }
        for name in [
            "",
            "evil.example",
            "evil.example:8080",
            "10.0.0.1:8080",
            "[::2]",
            "localhost.evil.example",
        ] {
            assert!(!is_loopback_name(name), "{name}");
        }
    }
}
