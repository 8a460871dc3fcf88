//! Connecting the dashboard to an API: whether the API is on another origin than the page.
//! Buildd sends no CORS headers, so a browser refuses every call it makes to a Buildd on
//! another origin; the failure looks like an unreachable server unless the origins are
//! compared.

/// The origin (`scheme://host[:port]`) of an absolute URL, lower-cased.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    (!scheme.is_empty() && !host.is_empty())
        .then(|| format!("{}://{}", scheme.to_lowercase(), host.to_lowercase()))
}

/// Whether an API at `base` (empty: the page's own server) is on another origin than the
/// page at `page_origin`.
pub fn is_cross_origin(base: &str, page_origin: &str) -> bool {
    if base.trim().is_empty() {
        return false;
    }
    origin_of(base) != origin_of(page_origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_is_scheme_host_and_port() {
        assert_eq!(
            origin_of("https://Buildd.example/api?x=1").as_deref(),
            Some("https://buildd.example")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:3100").as_deref(),
            Some("http://127.0.0.1:3100")
        );
        assert_eq!(origin_of("buildd.example"), None);
    }

    #[test]
    fn another_host_or_port_is_cross_origin_and_the_page_server_is_not() {
        let page = "http://127.0.0.1:8080";
        assert!(!is_cross_origin("", page));
        assert!(!is_cross_origin("http://127.0.0.1:8080/", page));
        assert!(is_cross_origin("http://127.0.0.1:3100", page));
        assert!(is_cross_origin("https://buildd.example", page));
    }
}
