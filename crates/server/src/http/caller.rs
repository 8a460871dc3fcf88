//! The caller of a request: `Authorization: Bearer bld_…` names an account, and every
//! request acts for that account's team; mutations need an admin key.

use super::state::AppState;
use crate::db::Lane;
use crate::error::ApiError;
use crate::store::accounts::{account_by_hash, hash_key, keys_removed};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use buildd_core::AccountLevel;

/// The account behind the request's API key.
#[derive(Clone, Debug)]
pub struct Caller {
    pub account_id: String,
    pub team_id: String,
    pub level: AccountLevel,
    /// The account's name, for what a person does that others are told of (who stopped a
    /// task).
    pub name: String,
}

impl Caller {
    /// Whose writes these are, for the write queue: a person's (admin key) or a runner's.
    pub fn lane(&self) -> Lane {
        if self.level == AccountLevel::Admin {
            Lane::Person
        } else {
            Lane::Worker
        }
    }

    pub fn require_admin(&self) -> Result<(), ApiError> {
        if self.level == AccountLevel::Admin {
            Ok(())
        } else {
            Err(ApiError::admin_required())
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or(ApiError::Unauthorized)?;
        // The scheme is case-insensitive (RFC 9110).
        let key = header
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, key)| key.trim())
            .filter(|k| !k.is_empty())
            .ok_or(ApiError::Unauthorized)?;
        let hash = hash_key(key);
        // Keys deleted by this process, and notices of keys changed through other servers.
        let removed = keys_removed() + state.db.key_notices();
        let account = match state.keys.get(&hash, removed) {
            Some(account) => account,
            None => {
                let mut tx = state.db.read().await?;
                let account = account_by_hash(&mut tx, &hash)
                    .await?
                    .ok_or(ApiError::Unauthorized)?;
                state.keys.keep(hash, account.clone(), removed);
                account
            }
        };
        Ok(Caller {
            account_id: account.id,
            team_id: account.team_id,
            level: AccountLevel::parse(&account.level),
            name: account.name,
        })
    }
}
