//! Checking a key before it is kept: `GET /api/accounts/me` names its level (only an admin
//! key reviews plans, answers questions and changes settings), and a failure is told as what
//! it is: a key the server refused, a server that did not answer, or a browser that refused
//! a call to another origin (Buildd sends no CORS headers).

use crate::api::{self, ApiError, Connection};
use buildd_core::connect::is_cross_origin;
use buildd_core::AccountLevel;

/// What a key may do, once the server accepted it.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyCheck {
    Admin,
    /// Reads work; reviews, answers and settings are refused to it.
    Limited(AccountLevel),
}

/// Checks `candidate`; the error is the sentence to show.
pub async fn check_key(candidate: Connection) -> Result<KeyCheck, ApiError> {
    match api::account_me(&candidate).await {
        Ok(me) if me.level == AccountLevel::Admin => Ok(KeyCheck::Admin),
        Ok(me) => Ok(KeyCheck::Limited(me.level)),
        // A server without the account read: the mission list proves the key reads.
        Err(ApiError::NotFound(_) | ApiError::Status(405, _)) => {
            api::missions(&candidate).await.map(|_| KeyCheck::Admin)
        }
        Err(e) => Err(e),
    }
}

/// Why `candidate` could not connect, in words a person can act on.
pub fn why_not(candidate: &Connection, error: &ApiError) -> String {
    let page = leptos::prelude::window()
        .location()
        .origin()
        .unwrap_or_default();
    match error {
        ApiError::Unauthorized(_) => "The server rejected this API key (401 Unauthorized). \
             Check that you pasted the whole key; it starts with bld_."
            .into(),
        ApiError::Unreachable(_) if is_cross_origin(&candidate.base, &page) => format!(
            "The browser could not call {} from this page ({page}). Buildd does not allow calls \
             from pages on another origin, so the browser refuses them. Serve this dashboard \
             from the same origin instead: `buildd-server serve --upstream {}` serves it and \
             forwards /api/* to Buildd; open that server's address and leave the API URL empty.",
            candidate.base, candidate.base
        ),
        other => other.to_string(),
    }
}

/// The notice for a key that connected but may not act.
pub fn limited_notice(level: &AccountLevel) -> String {
    format!(
        "Connected with a {level}-level key: you can follow missions, but reviewing and \
         approving plans, answering questions, merging and changing settings need an \
         admin-level key."
    )
}
