//! A field of a PATCH body: left out, set to null, or given a value. A plain `Option`
//! cannot tell the first two apart, and for a PATCH they differ: absent keeps the stored
//! value, null clears it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Patch<T> {
    #[default]
    Absent,
    Null,
    Value(T),
}

impl<T> Patch<T> {
    /// For `skip_serializing_if`: an absent field is left out of the body.
    pub fn is_absent(&self) -> bool {
        matches!(self, Patch::Absent)
    }

    /// The value, or `None` when absent or null.
    pub fn value(self) -> Option<T> {
        match self {
            Patch::Value(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_ref(&self) -> Patch<&T> {
        match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Value(v) => Patch::Value(v),
        }
    }

    /// The field as an update applies it: `None` keeps the stored value, `Some(None)`
    /// clears it.
    pub fn into_update(self) -> Option<Option<T>> {
        match self {
            Patch::Absent => None,
            Patch::Null => Some(None),
            Patch::Value(v) => Some(Some(v)),
        }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Patch<U> {
        match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Value(v) => Patch::Value(f(v)),
        }
    }
}

impl<T> From<Option<T>> for Patch<T> {
    /// `Some` sets the field, `None` clears it.
    fn from(value: Option<T>) -> Self {
        value.map_or(Patch::Null, Patch::Value)
    }
}

impl<T: Serialize> Serialize for Patch<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Patch::Value(v) => v.serialize(s),
            _ => s.serialize_none(),
        }
    }
}

/// Present fields only: a missing one is `Absent` by `#[serde(default)]`.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(d)?.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Body {
        #[serde(default, skip_serializing_if = "Patch::is_absent")]
        priority: Patch<i64>,
    }

    #[test]
    fn absent_null_and_a_value_are_three_things() {
        let read = |v| serde_json::from_value::<Body>(v).unwrap().priority;
        assert_eq!(read(json!({})), Patch::Absent);
        assert_eq!(read(json!({"priority": null})), Patch::Null);
        assert_eq!(read(json!({"priority": 3})), Patch::Value(3));
        let sent = |p| serde_json::to_value(Body { priority: p }).unwrap();
        assert_eq!(sent(Patch::Absent), json!({}));
        assert_eq!(sent(Patch::Null), json!({"priority": null}));
        assert_eq!(sent(Patch::Value(3)), json!({"priority": 3}));
        assert_eq!(Patch::Value(3).into_update(), Some(Some(3)));
        assert_eq!(Patch::<i64>::Null.into_update(), Some(None));
        assert_eq!(Patch::<i64>::Absent.into_update(), None);
    }
}
