//! Readers for fields whose refusal says more than their type: `#[serde(deserialize_with)]`
//! on the field, each an error in the house's words (see `refusal::describe`).

use super::Patch;
use serde::de::Error;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// An hour of the day, refused in one sentence whatever is wrong with it (the range is the
/// active-hours rule's to check, with the other two fields).
pub fn hour<'de, D: Deserializer<'de>>(d: D) -> Result<Patch<i64>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None => Ok(Patch::Null),
        Some(v) => v
            .as_i64()
            .map(Patch::Value)
            .ok_or_else(|| D::Error::custom("must be an integer from 0 to 23")),
    }
}

/// An array of strings, refused as a whole.
pub fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Patch<Vec<String>>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None => Ok(Patch::Null),
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                _ => Err(D::Error::custom("must be an array of strings")),
            })
            .collect::<Result<_, _>>()
            .map(Patch::Value),
        Some(_) => Err(D::Error::custom("must be an array of strings")),
    }
}

/// An array of objects (a worker's milestones), kept as they came.
pub fn objects<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Value>>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None => Ok(None),
        Some(Value::Array(items)) if items.iter().all(Value::is_object) => Ok(Some(items)),
        Some(_) => Err(D::Error::custom("must be an array of objects")),
    }
}

/// An object, or null.
pub fn object<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v)),
        Some(_) => Err(D::Error::custom("must be an object")),
    }
}

/// Any JSON value, null included, kept as it came: for fields whose rule reads the raw
/// value (a budget as a number or a decimal string, a merge policy checked key by key).
pub fn raw<'de, D: Deserializer<'de>>(d: D) -> Result<Patch<Value>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Null => Patch::Null,
        v => Patch::Value(v),
    })
}

/// A number in a query string. One that does not read as an integer is kept as
/// `i64::MIN`, below every range, so the query's `validate` refuses it in the words of the
/// range it must lie in ("limit must be an integer from 1 to 200").
pub fn query_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.map(|v| v.trim().parse().unwrap_or(i64::MIN)))
}
