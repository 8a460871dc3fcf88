//! `GET /api/accounts/me`: the key's own account. Buildd's MCP server asks it on every tool
//! call to choose the toolset it offers, so an admin key gets plan review and missions.

use super::caller::Caller;
use super::state::AppState;
use crate::error::{ApiError, ApiResult};
use crate::store::accounts::find_account;
use axum::extract::State;
use axum::Json;
use buildd_core::{AccountLevel, AccountMe};

/// Buildd's default cap on one account's concurrent workers; this server sets none.
const MAX_CONCURRENT_WORKERS: i64 = 3;

pub async fn me(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<AccountMe>> {
    let mut tx = state.db.read().await?;
    let account = find_account(&mut tx, &caller.account_id)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    Ok(Json(AccountMe {
        id: account.id,
        name: account.name,
        kind: "service".into(),
        level: AccountLevel::parse(&account.level),
        auth_type: "api".into(),
        max_concurrent_workers: MAX_CONCURRENT_WORKERS,
        team_id: Some(account.team_id),
    }))
}
