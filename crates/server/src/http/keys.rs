//! The accounts behind recently used API keys, kept a few seconds: a runner sends a request
//! a second with the same key, and looking it up each time costs a read transaction. Only
//! keys that resolved are kept (an unknown key is looked up every time, so a new key works
//! at once). A key this server deletes stops working at once (unless it is used while the
//! delete is being written); on Postgres, so does one that another server deletes, or that
//! is deleted by hand, once its notice arrives; otherwise one removed from the database by
//! other means within [`KEPT_FOR`].

use crate::store::accounts::AccountRow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a resolved key is trusted without asking the database again.
pub const KEPT_FOR: Duration = Duration::from_secs(10);

/// Keys kept at most; past it the cache starts over.
const CAPACITY: usize = 10_000;

#[derive(Clone, Default)]
pub struct KeyCache {
    inner: Arc<Mutex<Kept>>,
}

#[derive(Default)]
struct Kept {
    /// The count of key changes ([`KeyCache::get`]'s `removed`) when these were read.
    removed: u64,
    by_hash: HashMap<String, (AccountRow, Instant)>,
}

impl KeyCache {
    /// The account of the key whose hash is `hash`, if it was resolved lately and no key
    /// changed since: `removed` counts the changes known now, and every kept key is
    /// forgotten when it moves.
    pub fn get(&self, hash: &str, removed: u64) -> Option<AccountRow> {
        let mut kept = self.inner.lock().expect("key cache lock");
        if kept.removed != removed {
            kept.by_hash.clear();
            kept.removed = removed;
        }
        match kept.by_hash.get(hash) {
            Some((account, at)) if at.elapsed() < KEPT_FOR => Some(account.clone()),
            Some(_) => {
                kept.by_hash.remove(hash);
                None
            }
            None => None,
        }
    }

    /// Keeps `account` for the key whose hash is `hash`, read when the count of changes was
    /// `removed`.
    pub fn keep(&self, hash: String, account: AccountRow, removed: u64) {
        let mut kept = self.inner.lock().expect("key cache lock");
        if kept.removed != removed {
            return;
        }
        if kept.by_hash.len() >= CAPACITY {
            kept.by_hash.clear();
        }
        kept.by_hash.insert(hash, (account, Instant::now()));
    }
}
