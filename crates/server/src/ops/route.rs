//! What a request is called in logs and figures.

use axum::extract::{MatchedPath, Request};

/// The route template of a request (`/api/missions/{id}`), never its path (which holds ids)
/// or query; `fallback` for what no route matched (the dashboard's files, or a 404).
pub fn route_of(request: &Request) -> &str {
    match request.extensions().get::<MatchedPath>() {
        // axum's own catch-alls for a nested router's fallback.
        Some(path) if !path.as_str().contains("__private__") => path.as_str(),
        _ => "fallback",
    }
}
