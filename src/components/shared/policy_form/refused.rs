//! `Refused`: why the server refused a merge policy, by field where its problems name one.

use super::field::Field;
use crate::api::ApiError;
use buildd_core::merge_policy::PolicyError;

/// Why a save was refused: each field's problem as the server listed it, and the rest of
/// its answer when it named no field of the form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refused {
    pub fields: Vec<PolicyError>,
    pub other: Option<String>,
}

impl Refused {
    pub fn of(error: &ApiError) -> Self {
        match error {
            ApiError::Invalid(refused) => {
                let (message, errors) = (&refused.message, &refused.errors);
                let fields: Vec<PolicyError> = errors
                    .iter()
                    .filter_map(|e| serde_json::from_value(e.clone()).ok())
                    .collect();
                let unplaced: Vec<String> = fields
                    .iter()
                    .filter(|e| Field::of(e).is_none())
                    .map(PolicyError::in_words)
                    .collect();
                let other = if fields.is_empty() {
                    Some(message.clone())
                } else {
                    (!unplaced.is_empty()).then(|| unplaced.join(" "))
                };
                Self { fields, other }
            }
            other => Self {
                fields: vec![],
                other: Some(other.refusal()),
            },
        }
    }
}
