//! Small display helpers.

use buildd_core::pull_request::{diff_size, PullRequest};

/// "5m ago", "3h ago", "2d ago" for an ISO timestamp; empty when it cannot be read.
pub fn time_ago(iso: Option<&str>) -> String {
    let Some(iso) = iso else {
        return String::new();
    };
    let then = js_sys::Date::parse(iso);
    if then.is_nan() {
        return String::new();
    }
    ago(then)
}

/// `time_ago` for epoch milliseconds.
pub fn time_ago_ms(epoch_ms: i64) -> String {
    ago(epoch_ms as f64)
}

fn ago(then_ms: f64) -> String {
    let minutes = ((js_sys::Date::now() - then_ms) / 60_000.0).round() as i64;
    match minutes {
        m if m < 1 => "just now".into(),
        m if m < 60 => format!("{m}m ago"),
        m if m < 60 * 24 => format!("{}h ago", m / 60),
        m => format!("{}d ago", m / (60 * 24)),
    }
}

/// "in 5m", "in 3h", "in 2d" for a future ISO timestamp; "due" once it has passed.
pub fn time_until(iso: &str) -> String {
    let when = js_sys::Date::parse(iso);
    if when.is_nan() {
        return String::new();
    }
    let minutes = ((when - js_sys::Date::now()) / 60_000.0).round() as i64;
    match minutes {
        m if m <= 0 => "due".into(),
        m if m < 60 => format!("in {m}m"),
        m if m < 60 * 24 => format!("in {}h", m / 60),
        m => format!("in {}d", m / (60 * 24)),
    }
}

/// The first eight characters of an id, as people quote them.
pub fn short_id(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// "+40/−4", and for a policy with a size cap the lines it counts against that cap.
pub fn size_line(pr: &PullRequest) -> Option<String> {
    let size = diff_size(pr.files.as_deref()?);
    let policy = &pr.policy.policy;
    let lines = format!("+{}/−{}", size.additions, size.deletions);
    let Some(cap) = policy.size_cap() else {
        return Some(lines);
    };
    let locks = match size.lock_files {
        0 => String::new(),
        1 => ", a lock file not counted".into(),
        n => format!(", {n} lock files not counted"),
    };
    Some(format!("{lines} · {} of {cap} lines{locks}", size.counted))
}
