//! `POST /api/mcp`: the MCP server Buildd's runner hands every agent it starts
//! (`/api/mcp?workspace=…&worker=…`, the key as a bearer token), over MCP's Streamable
//! HTTP transport, stateless, answering in JSON. Its one tool, `buildd`, carries out each
//! action through the REST API with the caller's key, so the rules stay the handlers'.
//!
//! It sits above `http`: it takes the API's router as a value and calls it like a client.
//! A request from a page of another origin, or naming another host to a server on
//! loopback, is refused (`origin`).

mod actions;
mod admin_actions;
mod api;
mod context;
mod origin;
mod reply;
mod rpc;
mod task_actions;
mod tools;
mod worker_actions;

use crate::body::Params;
use crate::error::ApiError;
use api::Api;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use buildd_core::requests::queries::McpQuery;
use buildd_core::{AccountLevel, AccountMe};
use context::Context;
use rpc::Message;
use serde_json::{json, Value};

/// The protocol revisions this endpoint speaks; the first is offered when a client asks
/// for one it does not know.
const PROTOCOL_VERSIONS: &[&str] = &["2025-06-18", "2025-03-26", "2024-11-05"];

/// The `/api/mcp` route, calling `api` (the router of the paths under `/api`).
pub fn router(api: Router) -> Router {
    Router::new()
        .route(
            "/api/mcp",
            post(handle)
                .get(no_stream)
                .delete(no_stream)
                .fallback(|| async { ApiError::MethodNotAllowed }),
        )
        .with_state(api)
        .layer(axum::middleware::from_fn(origin::guard))
}

/// Stateless: there is no stream to open and no session to end. A 405 tells MCP clients
/// not to poll for one.
async fn no_stream() -> Response {
    let mut response = (
        StatusCode::METHOD_NOT_ALLOWED,
        Json(json!({"error": "This MCP server is stateless: POST JSON-RPC messages to /api/mcp"})),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, header::HeaderValue::from_static("POST"));
    response
}

async fn handle(
    State(router): State<Router>,
    Params(query): Params<McpQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(authorization) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    else {
        return unauthorized("Missing Authorization header");
    };
    let api = Api::new(router, authorization.to_string());
    let me = match api.get("/api/accounts/me").await {
        Ok(me) => serde_json::from_value::<AccountMe>(me)
            .expect("this server's own account answer parses"),
        Err(refusal) if refusal.status == StatusCode::UNAUTHORIZED => {
            return unauthorized("Invalid API key")
        }
        Err(refusal) => return (refusal.status, Json(refusal.body)).into_response(),
    };
    let ctx = Context {
        api,
        level: me.level,
        worker_id: query.worker.filter(|w| !w.is_empty()),
        workspace_id: query.workspace.filter(|w| !w.is_empty()),
    };

    let parsed: Value = match serde_json::from_slice(&body) {
        Ok(value) => value,
        Err(e) => {
            return (
                StatusCode::BAD_REQUEST,
                Json(rpc::error(
                    Value::Null,
                    rpc::PARSE_ERROR,
                    format!("Parse error: {e}"),
                )),
            )
                .into_response()
        }
    };
    let (messages, batch) = match parsed {
        Value::Array(items) if items.is_empty() => {
            return (
                StatusCode::BAD_REQUEST,
                Json(rpc::error(
                    Value::Null,
                    rpc::INVALID_REQUEST,
                    "an empty batch",
                )),
            )
                .into_response()
        }
        Value::Array(items) => (items, true),
        single => (vec![single], false),
    };
    let mut answers = Vec::new();
    for message in messages {
        if let Some(answer) = answer(&ctx, Message::read(message)).await {
            answers.push(answer);
        }
    }
    match (answers.len(), batch) {
        (0, _) => StatusCode::ACCEPTED.into_response(),
        (_, true) => Json(Value::Array(answers)).into_response(),
        (_, false) => Json(answers.swap_remove(0)).into_response(),
    }
}

fn unauthorized(message: &str) -> Response {
    (StatusCode::UNAUTHORIZED, Json(json!({"error": message}))).into_response()
}

/// The answer to one message; none for a notification.
async fn answer(ctx: &Context, message: Message) -> Option<Value> {
    let (id, method, params) = match message {
        Message::Notification => return None,
        Message::Invalid { id, reason } => {
            return Some(rpc::error(id, rpc::INVALID_REQUEST, reason))
        }
        Message::Request { id, method, params } => (id, method, params),
    };
    Some(match method.as_str() {
        "initialize" => rpc::result(id, initialize(&ctx.level, &params)),
        "ping" => rpc::result(id, json!({})),
        "tools/list" => rpc::result(id, tools::list(&ctx.level)),
        "tools/call" => match call_tool(ctx, &params).await {
            Ok(result) => rpc::result(id, result),
            Err(reason) => rpc::error(id, rpc::INVALID_PARAMS, reason),
        },
        other => rpc::error(
            id,
            rpc::METHOD_NOT_FOUND,
            format!("Method not found: {other}"),
        ),
    })
}

fn initialize(level: &AccountLevel, params: &Value) -> Value {
    let asked = params["protocolVersion"].as_str();
    let version = asked
        .filter(|v| PROTOCOL_VERSIONS.contains(v))
        .unwrap_or(PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "buildd", "version": env!("CARGO_PKG_VERSION")},
        "instructions": tools::instructions(level),
    })
}

async fn call_tool(ctx: &Context, params: &Value) -> Result<Value, String> {
    let name = params["name"]
        .as_str()
        .ok_or("params.name is required: the tool to call")?;
    let arguments = match &params["arguments"] {
        Value::Null => Default::default(),
        Value::Object(arguments) => arguments.clone(),
        _ => return Err("params.arguments must be an object".into()),
    };
    if name != "buildd" {
        return Ok(reply::Reply::error(format!("Error: Unknown tool: {name}")).to_result());
    }
    let Some(action) = arguments.get("action").and_then(Value::as_str) else {
        return Ok(reply::Reply::error("Error: action is required").to_result());
    };
    let action_params = match arguments.get("params") {
        None | Some(Value::Null) => Default::default(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => return Ok(reply::Reply::error("Error: params must be an object").to_result()),
    };
    Ok(actions::call(ctx, action, &action_params).await.to_result())
}
