//! Whether a database holds the migrations this binary carries, on either backend.

use std::collections::BTreeSet;

/// Whether the migrations `applied` to a database are exactly those `carried` by this
/// binary; which are missing or unknown, in words, when not.
pub(super) fn matching(carried: &BTreeSet<i64>, applied: &BTreeSet<i64>) -> Result<(), String> {
    let missing: Vec<String> = carried.difference(applied).map(i64::to_string).collect();
    if !missing.is_empty() {
        return Err(format!("migrations not applied: {}", missing.join(", ")));
    }
    let unknown: Vec<String> = applied.difference(carried).map(i64::to_string).collect();
    if !unknown.is_empty() {
        return Err(format!(
            "the database has migrations this server does not know (a newer one ran): {}",
            unknown.join(", ")
        ));
    }
    Ok(())
}
