//! Answers that tell "null" from "not sent": Buildd's detail says `result: null` or
//! `mission: null` where its lists say nothing, and both are kept apart when read back.

use serde::Deserialize;

/// A field that is present, null or not, reads as `Some`; an absent one stays `None`
/// (with `#[serde(default)]`).
pub(crate) fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}
