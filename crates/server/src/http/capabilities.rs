//! `GET /api/missions/capabilities`: what this server offers, asked without a key as Buildd
//! allows, so the dashboard can choose its pages before it is connected.

use axum::Json;
use buildd_core::capabilities::Capabilities;

pub async fn list() -> Json<Capabilities> {
    Json(Capabilities::of_this_server())
}
