//! A small JSON-over-HTTP client with the worker's API key.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::Request;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

#[derive(Clone)]
pub struct WorkerClient {
    http: Client<HttpConnector, Full<Bytes>>,
    base: String,
    key: String,
}

impl WorkerClient {
    /// A client of the API at `base` (`http://host:port`), authenticated with `key`.
    pub fn new(base: &str, key: &str) -> Self {
        Self {
            http: Client::builder(TokioExecutor::new()).build_http(),
            base: base.trim_end_matches('/').to_string(),
            key: key.to_string(),
        }
    }

    /// Sends `body` to `path`; returns the status and the JSON answer.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        body: Value,
    ) -> Result<(u16, Value), String> {
        let request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base))
            .header("Authorization", format!("Bearer {}", self.key))
            .header("Content-Type", "application/json")
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(|e| e.to_string())?;
        let response = self
            .http
            .request(request)
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let status = response.status().as_u16();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, value))
    }
}
