//! The REST API as the tools call it: in-process, through the same router and with the
//! caller's own key, so every rule, scope and key level is the handlers' and nothing here
//! can reach further than the key could over HTTP.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use serde_json::Value;
use tower::ServiceExt;

/// An answer the API refused, as a tool reports it to the agent.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    /// The whole `{error, …}` body; its `hint` and `abort` say what to do next.
    pub body: Value,
}

impl Refusal {
    /// The refusal in words: the status and the API's own message.
    pub fn message(&self) -> String {
        let error = self.body["error"].as_str().unwrap_or("refused");
        format!("API error {}: {error}", self.status.as_u16())
    }
}

pub type Answer = Result<Value, Refusal>;

/// One caller's view of the API.
#[derive(Clone)]
pub struct Api {
    router: Router,
    authorization: String,
}

impl Api {
    /// `router` is the API's route table (paths relative to `/api`).
    pub fn new(router: Router, authorization: String) -> Self {
        Self {
            router,
            authorization,
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.send(Method::POST, path, Some(body)).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> Answer {
        self.send(Method::PATCH, path, Some(body)).await
    }

    /// `path` as Buildd's clients write it, `/api/…`.
    async fn send(&self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let relative = path.strip_prefix("/api").unwrap_or(path);
        let request = Request::builder()
            .method(method)
            .uri(relative)
            .header(header::AUTHORIZATION, &self.authorization)
            .header(header::CONTENT_TYPE, "application/json");
        let request = match body {
            Some(body) => request.body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        }
        .expect("a request of a method, a path and a JSON body is well formed");
        let response = match self.router.clone().oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap_or_default();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if status.is_success() {
            Ok(value)
        } else {
            Err(Refusal {
                status,
                body: value,
            })
        }
    }
}
