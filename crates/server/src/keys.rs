//! Creating teams and API keys (for `buildd-server key create` and the demo).

use crate::auth::{generate_key, hash_key};
use crate::db::Tx;
use crate::time::{new_id, now};
use buildd_core::AccountLevel;

/// The id of the team called `name`, created when it does not exist yet.
pub async fn ensure_team(tx: &mut Tx, name: &str) -> Result<String, sqlx::Error> {
    if let Some((id,)) = sqlx::query_as::<_, (String,)>("SELECT id FROM teams WHERE name = ?")
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?
    {
        return Ok(id);
    }
    let id = new_id();
    sqlx::query("INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)")
        .bind(&id)
        .bind(name)
        .bind(now())
        .execute(&mut **tx)
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
    sqlx::query(
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
    .execute(&mut **tx)
    .await?;
    Ok(key)
}
