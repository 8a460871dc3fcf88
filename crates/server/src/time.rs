//! Timestamps as Buildd writes them: ISO-8601 UTC with milliseconds.

use chrono::{DateTime, SecondsFormat, Utc};

pub fn iso(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub fn now() -> String {
    iso(Utc::now())
}

pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}
