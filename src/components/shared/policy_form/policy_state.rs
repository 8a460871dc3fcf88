//! A merge policy as typed in its form, what the server and the rule say is wrong with it,
//! and where in the form each error belongs.

use crate::api::ApiError;
use crate::state::connection::Connection;
use crate::state::mutation::Mutation;
use buildd_core::merge_policy::{validate_merge_policy, MergePolicy};
use leptos::prelude::*;
use serde_json::{json, Map, Value};
use std::future::Future;

/// The form as typed. Numbers stay text until the server checks them.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PolicyDraft {
    pub inherit: bool,
    pub tier: String,
    pub max_lines: String,
    pub deny_paths: String,
    pub reviewer_role: String,
    pub gate_condition: String,
    pub escalate_paths: String,
    pub stall_minutes: String,
}

impl PolicyDraft {
    pub fn from(policy: Option<&MergePolicy>) -> Self {
        let Some(p) = policy else {
            return Self {
                inherit: true,
                tier: "auto-threshold".into(),
                gate_condition: "approve-and-merge".into(),
                ..Default::default()
            };
        };
        let threshold = p.threshold.clone();
        let review = p.agent_review.clone();
        Self {
            inherit: false,
            tier: p.tier.clone(),
            max_lines: threshold
                .as_ref()
                .and_then(|t| t.max_lines)
                .map(|n| n.to_string())
                .unwrap_or_default(),
            deny_paths: threshold
                .map(|t| t.deny_paths.join("\n"))
                .unwrap_or_default(),
            reviewer_role: review
                .as_ref()
                .map(|r| r.reviewer_role.clone())
                .unwrap_or_default(),
            gate_condition: review
                .as_ref()
                .and_then(|r| r.gate_condition.clone())
                .unwrap_or_else(|| "approve-and-merge".into()),
            escalate_paths: review
                .map(|r| r.escalate_to_paths.join("\n"))
                .unwrap_or_default(),
            stall_minutes: p
                .stall_notify_minutes
                .map(|n| n.to_string())
                .unwrap_or_default(),
        }
    }

    /// The `mergePolicy` this draft sends: `null` to inherit.
    pub fn to_json(&self) -> Value {
        if self.inherit {
            return Value::Null;
        }
        let number = |s: &str| -> Option<Value> {
            let s = s.trim();
            (!s.is_empty()).then(|| s.parse::<i64>().map(Value::from).unwrap_or(Value::from(s)))
        };
        let list = |s: &str| -> Vec<String> {
            s.split(['\n', ','])
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(String::from)
                .collect()
        };
        let mut policy = Map::new();
        policy.insert("tier".into(), json!(self.tier));
        match self.tier.as_str() {
            "auto-threshold" => {
                let mut t = Map::new();
                if let Some(n) = number(&self.max_lines) {
                    t.insert("maxLines".into(), n);
                }
                let deny = list(&self.deny_paths);
                if !deny.is_empty() {
                    t.insert("denyPaths".into(), json!(deny));
                }
                if !t.is_empty() {
                    policy.insert("threshold".into(), Value::Object(t));
                }
            }
            "agent-review" => {
                let mut a = Map::new();
                a.insert("reviewerRole".into(), json!(self.reviewer_role.trim()));
                a.insert("gateCondition".into(), json!(self.gate_condition));
                let escalate = list(&self.escalate_paths);
                if !escalate.is_empty() {
                    a.insert("escalateToPaths".into(), json!(escalate));
                }
                policy.insert("agentReview".into(), Value::Object(a));
            }
            _ => {}
        }
        if let Some(n) = number(&self.stall_minutes) {
            policy.insert("stallNotifyMinutes".into(), n);
        }
        Value::Object(policy)
    }
}

/// The form being edited and its save. Made by the editor that shows the form, which is
/// not made again by a refresh, so what is typed stays.
#[derive(Clone, Copy)]
pub struct PolicyState {
    /// `Some` while the form is open.
    pub draft: RwSignal<Option<PolicyDraft>>,
    /// Saves a `mergePolicy` value: on success the form closes and the page refreshes; a
    /// refusal keeps the draft, with the server's errors, each `<prefix><path>: message`.
    pub save: Mutation<Value, (), Vec<String>>,
    /// Where the policy sits in the request: `mergePolicy.` or `gitConfig.mergePolicy.`.
    pub prefix: &'static str,
}

impl PolicyState {
    /// A policy saved by `request`, at `prefix` of its body.
    pub fn new<Fut>(
        prefix: &'static str,
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
            move |c, value: &Value| request(c, value.clone()),
            |e| e.refusal().split("; ").map(String::from).collect(),
        );
        Self {
            draft,
            save,
            prefix,
        }
    }

    /// The server's refusals, each without the request's prefix (`threshold.maxLines: …`).
    pub(crate) fn server_errors(&self) -> Vec<String> {
        let prefix = self.prefix;
        self.save
            .error()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.strip_prefix(prefix).map(String::from).unwrap_or(e))
            .collect()
    }

    /// What the server would refuse in the draft, by the rule it applies
    /// (`validate_merge_policy`), so a wrong value is named while it is typed.
    pub(crate) fn draft_errors(&self) -> Vec<String> {
        self.draft.with(|d| match d {
            Some(d) if !d.inherit => validate_merge_policy(&d.to_json(), "")
                .err()
                .unwrap_or_default()
                .into_iter()
                .map(|e| e.trim_start_matches('.').to_string())
                .collect(),
            _ => Vec::new(),
        })
    }

    /// Refusals that name no field of the form.
    pub fn general_errors(&self) -> Option<String> {
        let other: Vec<String> = self
            .server_errors()
            .into_iter()
            .filter(|e| Field::of(e).is_none())
            .collect();
        (!other.is_empty()).then(|| other.join("; "))
    }
}

/// The form's fields, as an error's path names them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Tier,
    MaxLines,
    DenyPaths,
    Reviewer,
    EscalatePaths,
    Gate,
    Stall,
}

impl Field {
    /// The field `error` (`<path>: <message>`) is about.
    pub(crate) fn of(error: &str) -> Option<Field> {
        let path = error.split(':').next().unwrap_or_default();
        Some(match path {
            "tier" => Field::Tier,
            "threshold" | "threshold.maxLines" | "threshold.maxSourceLines" => Field::MaxLines,
            "threshold.denyPaths" => Field::DenyPaths,
            "agentReview" | "agentReview.reviewerRole" => Field::Reviewer,
            "agentReview.escalateToPaths" => Field::EscalatePaths,
            "agentReview.gateCondition" | "agentReview.maxConfidenceThreshold" => Field::Gate,
            "stallNotifyMinutes" => Field::Stall,
            _ => return None,
        })
    }

    /// The error's element: its test id, and the id its input's `aria-describedby` names.
    pub(crate) fn error_id(self) -> &'static str {
        match self {
            Field::Tier => "policy-error-tier",
            Field::MaxLines => "policy-error-max-lines",
            Field::DenyPaths => "policy-error-deny",
            Field::Reviewer => "policy-error-reviewer",
            Field::EscalatePaths => "policy-error-escalate",
            Field::Gate => "policy-error-gate",
            Field::Stall => "policy-error-stall",
        }
    }
}

/// An error's message as the person at the form reads it.
fn in_words(error: &str) -> String {
    let message = error.split_once(": ").map_or(error, |(_, m)| m);
    match message {
        "must be a positive integer" => "Enter a whole number above 0.".into(),
        "is required (a role or skill slug)" => {
            "Name the reviewer's role or skill, such as reviewer.".into()
        }
        m if m.starts_with("must be an array of path prefixes") => {
            "Enter one path prefix per line.".into()
        }
        m if m.starts_with("must be one of") => "Choose a tier.".into(),
        m => {
            let mut m = m.to_string();
            if let Some(first) = m.get(..1) {
                let upper = first.to_uppercase();
                m.replace_range(..1, &upper);
            }
            if !m.ends_with('.') {
                m.push('.');
            }
            m
        }
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
        .find(|e| attempted.get() || !e.ends_with("is required (a role or skill slug)"));
    from_server.or(from_draft).map(|e| in_words(e))
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
