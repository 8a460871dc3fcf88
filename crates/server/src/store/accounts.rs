//! Teams and their API keys. A key is stored only as its SHA-256 hash (and a short prefix to
//! tell keys apart), so it is shown once, when it is created.

use crate::db::sql;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{new_id, now};
use buildd_core::AccountLevel;
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};

/// SHA-256 of the whole key, hex encoded: the only form a key is stored in.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// A new key: `bld_` and 32 random bytes in hex.
fn generate_key() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("bld_{}", hex::encode(bytes))
}

/// The account a key belongs to.
#[derive(sqlx::FromRow, Clone, Debug)]
pub struct AccountRow {
    pub id: String,
    pub team_id: String,
    pub name: String,
    pub level: String,
}

/// The account `id`.
pub async fn find_account(tx: &mut Tx, id: &str) -> Result<Option<AccountRow>, sqlx::Error> {
    sql::query_as("SELECT id, team_id, name, level FROM accounts WHERE id = ?")
        .bind(id)
        .fetch_optional(tx)
        .await
}

/// The account whose key is `key`, if any.
pub async fn account_by_key(tx: &mut Tx, key: &str) -> Result<Option<AccountRow>, sqlx::Error> {
    account_by_hash(tx, &hash_key(key)).await
}

/// The account whose key hashes to `hash`, if any.
pub async fn account_by_hash(tx: &mut Tx, hash: &str) -> Result<Option<AccountRow>, sqlx::Error> {
    sql::query_as("SELECT id, team_id, name, level FROM accounts WHERE api_key_hash = ?")
        .bind(hash)
        .fetch_optional(tx)
        .await
}

/// Accounts deleted by this process so far: whoever keeps keys' accounts in memory starts
/// over when it moves.
static KEYS_REMOVED: AtomicU64 = AtomicU64::new(0);

/// How many accounts this process has deleted (see [`delete_account`]).
pub fn keys_removed() -> u64 {
    KEYS_REMOVED.load(Ordering::SeqCst)
}

/// The id of the team called `name`, created when it does not exist yet.
pub async fn ensure_team(tx: &mut Tx, name: &str) -> Result<String, sqlx::Error> {
    if let Some((id,)) = sql::query_as::<(String,)>("SELECT id FROM teams WHERE name = ?")
        .bind(name)
        .fetch_optional(tx)
        .await?
    {
        return Ok(id);
    }
    let id = new_id();
    sql::query("INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)")
        .bind(&id)
        .bind(name)
        .bind(now())
        .execute(tx)
        .await?;
    Ok(id)
}

/// Creates an API key of `level` for the team; returns the key, which is never stored.
pub async fn create_key(
    tx: &mut Tx,
    team_id: &str,
    level: &AccountLevel,
    name: &str,
) -> Result<String, sqlx::Error> {
    let key = generate_key();
    sql::query(
        "INSERT INTO accounts (id, team_id, name, level, api_key_hash, api_key_prefix, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(new_id())
    .bind(team_id)
    .bind(name)
    .bind(level.as_str())
    .bind(hash_key(&key))
    .bind(&key[..12])
    .bind(now())
    .execute(tx)
    .await?;
    Ok(key)
}

/// The ids of the team's accounts called `name`.
pub async fn accounts_named(tx: &mut Tx, team_id: &str, name: &str) -> ApiResult<Vec<String>> {
    let rows: Vec<(String,)> =
        sql::query_as("SELECT id FROM accounts WHERE team_id = ? AND name = ?")
            .bind(team_id)
            .bind(name)
            .fetch_all(tx)
            .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// Deletes account `id`: its key stops working.
pub async fn delete_account(tx: &mut Tx, id: &str) -> ApiResult<()> {
    // Counted before the delete: a key read from now on is read again once this lands.
    KEYS_REMOVED.fetch_add(1, Ordering::SeqCst);
    sql::query("DELETE FROM accounts WHERE id = ?")
        .bind(id)
        .execute(tx)
        .await?;
    Ok(())
}
