//! Keyed rows: a `<For>` over the items' ids, each row reading its item by id as a memo. A
//! refresh then changes a row in place, so its focus and typed text stay, and re-renders
//! only the rows whose item changed.

use leptos::prelude::*;
use std::collections::HashMap;
use std::hash::Hash;

/// The item `find` finds, as a memo that changes only when that item does. A row is made
/// for an item of its list; once the item has left the list the row is going away, and it
/// keeps its last data meanwhile.
pub fn row_memo<T>(find: impl Fn() -> Option<T> + Send + Sync + 'static) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let row = Memo::new(move |last: Option<&T>| match (find(), last) {
        (Some(item), _) => item,
        (None, Some(last)) => last.clone(),
        (None, None) => unreachable!("a row is made for an item of its list"),
    });
    // Read now, while its item is in the list.
    row.with_untracked(|_| ());
    row
}

/// Where each item of a list stands, by its key: made once per change of the list, so each
/// of its rows finds its item at once ([`row_at`]) rather than scanning the list. A key
/// that repeats stands where it is first seen.
pub fn positions<K>(keys: impl Fn() -> Vec<K> + Send + Sync + 'static) -> Memo<HashMap<K, usize>>
where
    K: Eq + Hash + Send + Sync + 'static,
{
    Memo::new(move |_| {
        let mut at = HashMap::new();
        for (i, key) in keys().into_iter().enumerate() {
            at.entry(key).or_insert(i);
        }
        at
    })
}

/// The row of the item keyed `key`: [`row_memo`] of what `item` gives at its position.
pub fn row_at<K, T>(
    positions: Memo<HashMap<K, usize>>,
    key: K,
    item: impl Fn(usize) -> Option<T> + Send + Sync + 'static,
) -> Memo<T>
where
    K: Eq + Hash + Send + Sync + 'static,
    T: Clone + PartialEq + Send + Sync + 'static,
{
    row_memo(move || positions.with(|p| p.get(&key).copied()).and_then(&item))
}

/// `keys` made unique: a key seen before gets its count ("a", "a #2"), so a list that
/// repeats one (two steps with one ref) still keys each row apart.
pub fn unique_keys(keys: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    keys.into_iter()
        .map(|key| {
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            if *n == 1 {
                key
            } else {
                format!("{key} #{n}")
            }
        })
        .collect()
}
