//! Small display helpers.

use buildd_core::duration::{self, seconds_between};
use buildd_core::pull_request::{diff_size, PullRequest};

/// `iso` in epoch milliseconds, when it reads as a time.
fn epoch_ms(iso: &str) -> Option<f64> {
    Some(js_sys::Date::parse(iso)).filter(|ms| !ms.is_nan())
}

/// "just now", "5m ago", "3h 5m ago" for an ISO timestamp (buildd-core's `ago`); empty
/// when it cannot be read.
pub fn time_ago(iso: Option<&str>) -> String {
    iso.and_then(epoch_ms).map(ago_ms).unwrap_or_default()
}

/// `time_ago` for epoch milliseconds.
pub fn time_ago_ms(epoch_ms: i64) -> String {
    ago_ms(epoch_ms as f64)
}

fn ago_ms(then_ms: f64) -> String {
    duration::ago(seconds_between(then_ms, js_sys::Date::now()))
}

/// "due", "in 5m", "in 3h 5m" for an ISO timestamp (buildd-core's `until`); empty when it
/// cannot be read.
pub fn time_until(iso: &str) -> String {
    epoch_ms(iso)
        .map(|when| duration::until(seconds_between(js_sys::Date::now(), when)))
        .unwrap_or_default()
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

/// The local time of day of epoch milliseconds, "14:05:09".
pub fn clock(epoch_ms: i64) -> String {
    let t = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(epoch_ms as f64));
    format!(
        "{:02}:{:02}:{:02}",
        t.get_hours(),
        t.get_minutes(),
        t.get_seconds()
    )
}
