//! API keys: `Authorization: Bearer bld_…`, stored only as SHA-256 hashes. Every request
//! acts for the key's team; mutations need an admin key.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use buildd_core::AccountLevel;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// The account behind the request's API key.
#[derive(Clone, Debug)]
pub struct Caller {
    pub account_id: String,
    pub team_id: String,
    pub level: AccountLevel,
}

impl Caller {
    pub fn require_admin(&self) -> Result<(), ApiError> {
        if self.level == AccountLevel::Admin {
            Ok(())
        } else {
            Err(ApiError::admin_required())
        }
    }
}

/// SHA-256 of the whole key, hex encoded: the only form a key is stored in.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// A new key: `bld_` and 32 random bytes in hex.
pub fn generate_key() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("bld_{}", hex::encode(bytes))
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or(ApiError::Unauthorized)?;
        let key = header
            .strip_prefix("Bearer ")
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .ok_or(ApiError::Unauthorized)?;
        let mut tx = state.db.read().await?;
        let row: Option<(String, String, String)> =
            sqlx::query_as("SELECT id, team_id, level FROM accounts WHERE api_key_hash = ?")
                .bind(hash_key(key))
                .fetch_optional(&mut *tx)
                .await?;
        let (account_id, team_id, level) = row.ok_or(ApiError::Unauthorized)?;
        Ok(Caller {
            account_id,
            team_id,
            level: AccountLevel::parse(&level),
        })
    }
}
