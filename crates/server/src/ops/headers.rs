//! Headers on every answer: no content sniffing (a JSON answer is never run as a page or a
//! script), no framing (the dashboard's buttons cannot be clicked through another site's
//! page), and no referrer (a dashboard URL never leaves in a link). The dashboard page's
//! `Content-Security-Policy` is `dashboard_files`', which knows the page.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

pub async fn secure(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}
