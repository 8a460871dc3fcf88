//! A merge policy as typed in its form and its save, and what the server and the rule say
//! is wrong with each field: by each problem's path and code, never by its English.

use super::field::Field;
use super::refused::Refused;
use crate::api::{ApiError, Connection};
use crate::state::mutation::Mutation;
pub use buildd_core::merge_policy::PolicyDraft;
use buildd_core::merge_policy::{MergePolicy, PolicyError, PolicyErrorCode};
use leptos::prelude::*;
use serde_json::Value;
use std::future::Future;

/// The form being edited and its save. Made by the editor that shows the form, which is
/// not made again by a refresh, so what is typed stays.
#[derive(Clone, Copy)]
pub struct PolicyState {
    /// `Some` while the form is open.
    pub draft: RwSignal<Option<PolicyDraft>>,
    /// Saves a policy (`None`: inherit): on success the form closes and the page
    /// refreshes; a refusal keeps the draft, with the server's problems by field.
    pub save: Mutation<Option<MergePolicy>, (), Refused>,
}

impl PolicyState {
    /// A policy saved by `request`, given the `mergePolicy` value to send.
    pub fn new<Fut>(
        refresh: Callback<()>,
        request: impl Fn(Connection, Value) -> Fut + 'static,
    ) -> Self
    where
        Fut: Future<Output = Result<(), ApiError>> + 'static,
    {
        let draft = RwSignal::new(None);
        let save = Mutation::send_then_clear(
            draft,
            refresh,
            move |c, policy: &Option<MergePolicy>| {
                request(c, serde_json::to_value(policy).unwrap_or(Value::Null))
            },
            Refused::of,
        );
        Self { draft, save }
    }

    /// The server's problems with the last save, by field.
    fn server_errors(&self) -> Vec<PolicyError> {
        self.save.error().map(|r| r.fields).unwrap_or_default()
    }

    /// What the server would refuse in the draft, by the rule it applies, so a wrong value
    /// is named while it is typed.
    pub(crate) fn draft_errors(&self) -> Vec<PolicyError> {
        self.draft.with(|d| {
            d.as_ref()
                .and_then(|d| d.to_policy().err())
                .unwrap_or_default()
        })
    }

    /// A refusal that names no field of the form.
    pub fn general_errors(&self) -> Option<String> {
        self.save.error().and_then(|r| r.other)
    }
}

/// What is wrong with `field` now: the server's refusal, or the draft's own error. A
/// missing required value is named only once Save was pressed.
pub(crate) fn field_error(
    state: PolicyState,
    attempted: RwSignal<bool>,
    field: Field,
) -> Option<String> {
    let server = state.server_errors();
    let draft = state.draft_errors();
    let from_server = server.iter().find(|e| Field::of(e) == Some(field));
    let from_draft = draft
        .iter()
        .filter(|e| Field::of(e) == Some(field))
        .find(|e| attempted.get() || e.code != PolicyErrorCode::Required);
    from_server.or(from_draft).map(PolicyError::in_words)
}

pub(crate) fn update(state: PolicyState, f: impl Fn(&mut PolicyDraft)) {
    state.draft.update(|d| {
        if let Some(d) = d {
            f(d)
        }
    });
}

pub(crate) fn text(state: PolicyState, get: fn(&PolicyDraft) -> String) -> impl Fn() -> String {
    move || {
        state
            .draft
            .with(|d| d.as_ref().map(get).unwrap_or_default())
    }
}
