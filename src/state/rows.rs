//! Keyed rows: a `<For>` over the items' ids, each row reading its item by id as a memo. A
//! refresh then changes a row in place, so its focus and typed text stay, and re-renders
//! only the rows whose item changed.

use leptos::prelude::*;

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
