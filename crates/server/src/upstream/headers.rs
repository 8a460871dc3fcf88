//! Which headers cross the proxy. Towards Buildd only what the API reads, so a browser's
//! cookies and the page's origin never reach it; back to the browser everything but the
//! hop-by-hop headers and cookies.

use axum::http::{header, HeaderMap, HeaderName};

/// The request headers passed to the upstream; `Host` is the upstream's own.
const FORWARDED: [HeaderName; 7] = [
    header::AUTHORIZATION,
    header::CONTENT_TYPE,
    header::ACCEPT,
    header::ACCEPT_ENCODING,
    header::IF_NONE_MATCH,
    header::CONTENT_LENGTH,
    // A change stream's resume point.
    HeaderName::from_static("last-event-id"),
];

/// Headers that describe one connection, never the message (RFC 9110 §7.6.1).
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "upgrade",
];

pub fn towards_upstream(from_browser: &HeaderMap) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for name in FORWARDED {
        for value in from_browser.get_all(&name) {
            headers.append(name.clone(), value.clone());
        }
    }
    headers
}

pub fn towards_browser(from_upstream: &HeaderMap) -> HeaderMap {
    // Headers the upstream's `Connection` names are hop-by-hop too.
    let named: Vec<String> = from_upstream
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|n| n.trim().to_ascii_lowercase())
        .collect();
    let mut headers = HeaderMap::new();
    for (name, value) in from_upstream {
        let n = name.as_str();
        let dropped = HOP_BY_HOP.contains(&n)
            || name == header::TRANSFER_ENCODING
            || name == header::SET_COOKIE
            || named.iter().any(|c| c == n);
        if !dropped {
            headers.append(name.clone(), value.clone());
        }
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn only_the_api_headers_go_upstream() {
        let mut browser = HeaderMap::new();
        browser.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer bld_x"),
        );
        browser.insert(header::COOKIE, HeaderValue::from_static("session=1"));
        browser.insert(header::HOST, HeaderValue::from_static("dashboard.local"));
        browser.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://dashboard.local"),
        );
        browser.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"e1\""));
        let sent = towards_upstream(&browser);
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[header::AUTHORIZATION], "Bearer bld_x");
        assert_eq!(sent[header::IF_NONE_MATCH], "\"e1\"");
    }

    #[test]
    fn hop_by_hop_and_cookies_stay_behind() {
        let mut upstream = HeaderMap::new();
        upstream.insert(
            header::CONNECTION,
            HeaderValue::from_static("keep-alive, x-trace"),
        );
        upstream.insert("x-trace", HeaderValue::from_static("1"));
        upstream.insert(header::SET_COOKIE, HeaderValue::from_static("a=b"));
        upstream.insert(
            header::TRANSFER_ENCODING,
            HeaderValue::from_static("chunked"),
        );
        upstream.insert(header::ETAG, HeaderValue::from_static("\"e2\""));
        upstream.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        let back = towards_browser(&upstream);
        assert_eq!(back.len(), 2);
        assert_eq!(back[header::ETAG], "\"e2\"");
        assert_eq!(back[header::CONTENT_ENCODING], "gzip");
    }
}
