//! The mission's merge policy: inherit the workspace default or override it, with the
//! effective policy and why. The server's errors are shown at the field they name.

use crate::api::{self, ApiError};
use crate::state::connection::Connection;
use crate::state::write::Write;
use buildd_core::client::ClientMission;
use buildd_core::merge_policy::{MergePolicy, TIERS};
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

#[derive(Clone, Copy)]
pub struct PolicyState {
    pub draft: RwSignal<Option<PolicyDraft>>,
    /// Its refusals are the server's, each `<prefix><path>: message`.
    pub save: Write<Vec<String>>,
    /// Where the policy sits in the request: `mergePolicy.` or `gitConfig.mergePolicy.`.
    pub prefix: &'static str,
}

impl PolicyState {
    /// A mission's override.
    pub fn for_mission() -> Self {
        Self::at("mergePolicy.")
    }

    /// A workspace's default.
    pub fn for_workspace() -> Self {
        Self::at("gitConfig.mergePolicy.")
    }

    fn at(prefix: &'static str) -> Self {
        Self {
            draft: RwSignal::new(None),
            save: Write::new(),
            prefix,
        }
    }

    /// Sends `request` (a save of the draft); on success the form closes and `refresh` runs,
    /// on a refusal the draft stays with the server's errors.
    pub fn send<Fut>(self, request: impl FnOnce(Connection) -> Fut, refresh: Callback<()>)
    where
        Fut: Future<Output = Result<(), ApiError>> + 'static,
    {
        self.save.send_then_clear(
            self.draft,
            request,
            |e| e.refusal().split("; ").map(String::from).collect(),
            refresh,
        );
    }

    fn errors(&self) -> Vec<String> {
        self.save.error().unwrap_or_default()
    }

    /// Refusals that name no field of the form.
    pub fn general_errors(&self) -> Option<String> {
        let prefix = self.prefix;
        let other: Vec<String> = self
            .errors()
            .into_iter()
            .filter(|e| {
                !["tier", "threshold", "agentReview", "stallNotifyMinutes"]
                    .iter()
                    .any(|p| e.starts_with(&format!("{prefix}{p}")))
            })
            .collect();
        (!other.is_empty()).then(|| other.join("; "))
    }
}

pub fn tier_label(tier: &str) -> &'static str {
    match tier {
        "human" => "Human: a person merges",
        "agent-review" => "Agent review: a reviewer agent decides",
        _ => "Auto-threshold: merges on green CI when the rails pass",
    }
}

/// The errors that name `path` (after `mergePolicy.`).
fn errors_at(state: PolicyState, path: &'static str) -> impl Fn() -> Option<String> {
    move || {
        let found: Vec<String> = state
            .errors()
            .iter()
            .filter_map(|e| e.strip_prefix(state.prefix))
            .filter(|e| e.starts_with(&format!("{path}:")) || e.starts_with(&format!("{path}.")))
            .map(String::from)
            .collect();
        (!found.is_empty()).then(|| found.join("; "))
    }
}

fn update(state: PolicyState, f: impl Fn(&mut PolicyDraft)) {
    state.draft.update(|d| {
        if let Some(d) = d {
            f(d)
        }
    });
}

fn text(state: PolicyState, get: fn(&PolicyDraft) -> String) -> impl Fn() -> String {
    move || {
        state
            .draft
            .with(|d| d.as_ref().map(get).unwrap_or_default())
    }
}

#[component]
pub fn MergePolicyEditor(
    mission: ClientMission,
    state: PolicyState,
    refresh: Callback<()>,
) -> impl IntoView {
    let effective = mission.effective_policy();
    let inherited = mission
        .workspace_merge_policy
        .as_ref()
        .map(|p| p.tier.clone())
        .unwrap_or_else(|| "auto-threshold (built-in default)".into());
    let own = mission.merge_policy.clone();
    let current = match &own {
        Some(p) => format!("Override: {}", tier_label(&p.tier)),
        None => format!("Inherit the workspace default: {inherited}"),
    };
    let editing = Memo::new(move |_| state.draft.with(Option::is_some));
    let workspace = mission.workspace_id.clone();
    let id = mission.id.clone();
    let save = Callback::new(move |value: Value| {
        let id = id.clone();
        state.send(
            |c| async move { api::update_mission(&c, &id, json!({ "mergePolicy": value })).await },
            refresh,
        );
    });
    view! {
        <section class="card" data-testid="merge-policy">
            <h2 class="card__title">"Merge policy"</h2>
            <p data-testid="effective-policy"><strong>{effective.reason.clone()}</strong></p>
            {move || if editing.get() {
                view! {
                    <PolicyForm
                        state=state
                        inherit_label=format!("Inherit (workspace default: {inherited})")
                        override_label="Override for this mission"
                        save=save
                        reset=true
                    />
                }
                .into_any()
            } else {
                let own = own.clone();
                view! {
                    <p class="muted small" data-testid="mission-policy">
                        {current.clone()}
                        {workspace.clone().map(|w| view! {
                            " · "
                            <a href=format!("/workspaces/{w}") data-testid="workspace-settings-link">"Workspace settings"</a>
                        })}
                    </p>
                    <div class="actions">
                        <button class="button" data-testid="edit-policy"
                            on:click=move |_| { state.save.clear_error(); state.draft.set(Some(PolicyDraft::from(own.as_ref()))); }>
                            "Change"
                        </button>
                    </div>
                }
                .into_any()
            }}
        </section>
    }
}

/// The edit form: inherit or set a policy, the tier's fields, the server's refusals, Save
/// and Cancel, and with `reset` a "Reset to inherited" that saves `null` at once.
#[component]
pub fn PolicyForm(
    state: PolicyState,
    #[prop(into)] inherit_label: String,
    override_label: &'static str,
    save: Callback<Value>,
    #[prop(optional)] reset: bool,
) -> impl IntoView {
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Some(d) = state.draft.get_untracked() {
            save.run(d.to_json());
        }
    };
    view! {
        <form class="form" on:submit=submit>
            <fieldset class="choices">
                <label class="checkbox">
                    <input type="radio" name="policy-mode" data-testid="policy-inherit"
                        prop:checked=move || state.draft.with(|d| d.as_ref().is_some_and(|d| d.inherit))
                        on:change=move |_| update(state, |d| d.inherit = true) />
                    {inherit_label}
                </label>
                <label class="checkbox">
                    <input type="radio" name="policy-mode" data-testid="policy-override"
                        prop:checked=move || state.draft.with(|d| d.as_ref().is_some_and(|d| !d.inherit))
                        on:change=move |_| update(state, |d| d.inherit = false) />
                    {override_label}
                </label>
            </fieldset>
            <PolicyFields state=state />
            {move || state.general_errors().map(|e| view! { <p class="form__error" role="alert" data-testid="policy-error">{e}</p> })}
            <div class="actions">
                <button class="button button--primary" type="submit" data-testid="save-policy" prop:disabled=move || state.save.busy()>
                    {move || if state.save.busy() { "Saving…" } else { "Save" }}
                </button>
                <button class="button" type="button" on:click=move |_| { state.draft.set(None); state.save.clear_error(); }>"Cancel"</button>
                {reset.then(|| view! {
                    <button class="button button--ghost" type="button" data-testid="reset-policy"
                        prop:disabled=move || state.save.busy()
                        on:click=move |_| save.run(Value::Null)>
                        "Reset to inherited"
                    </button>
                })}
            </div>
        </form>
    }
}

/// The tier and its fields, shown unless the draft inherits.
#[component]
fn PolicyFields(state: PolicyState) -> impl IntoView {
    let tier_is = move |t: &'static str| {
        move || {
            state
                .draft
                .with(|d| d.as_ref().is_some_and(|d| !d.inherit && d.tier == t))
        }
    };
    view! {
        <div class:hidden=move || state.draft.with(|d| d.as_ref().is_none_or(|d| d.inherit))>
            <label for="policy-tier">"Tier"</label>
            <select id="policy-tier" data-testid="policy-tier"
                prop:value=text(state, |d| d.tier.clone())
                on:change=move |ev| { let t = event_target_value(&ev); update(state, |d| d.tier = t.clone()) }>
                {TIERS.iter().map(|t| view! { <option value=*t>{tier_label(t)}</option> }).collect_view()}
            </select>
            {move || errors_at(state, "tier")().map(|e| view! { <p class="form__error" data-testid="policy-error-tier">{e}</p> })}
            <div class:hidden=move || !tier_is("auto-threshold")()>
                <label for="policy-max-lines">"Largest diff that merges by itself (changed lines)"</label>
                <input id="policy-max-lines" inputmode="numeric" placeholder="800" data-testid="policy-max-lines"
                    prop:value=text(state, |d| d.max_lines.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); update(state, |d| d.max_lines = v.clone()) } />
                <label for="policy-deny">"Paths that never merge by themselves (one prefix per line)"</label>
                <textarea id="policy-deny" rows="2" data-testid="policy-deny"
                    prop:value=text(state, |d| d.deny_paths.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); update(state, |d| d.deny_paths = v.clone()) }></textarea>
                {move || errors_at(state, "threshold")().map(|e| view! { <p class="form__error" data-testid="policy-error-threshold">{e}</p> })}
            </div>
            <div class:hidden=move || !tier_is("agent-review")()>
                <label for="policy-reviewer">"Reviewer role"</label>
                <input id="policy-reviewer" placeholder="reviewer" data-testid="policy-reviewer"
                    prop:value=text(state, |d| d.reviewer_role.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); update(state, |d| d.reviewer_role = v.clone()) } />
                <label for="policy-gate">"On approval"</label>
                <select id="policy-gate" prop:value=text(state, |d| d.gate_condition.clone())
                    on:change=move |ev| { let v = event_target_value(&ev); update(state, |d| d.gate_condition = v.clone()) }>
                    <option value="approve-and-merge">"Merge"</option>
                    <option value="approve-only">"Approve only; a person merges"</option>
                </select>
                <label for="policy-escalate">"Paths that always go to a person (one prefix per line)"</label>
                <textarea id="policy-escalate" rows="2"
                    prop:value=text(state, |d| d.escalate_paths.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); update(state, |d| d.escalate_paths = v.clone()) }></textarea>
                {move || errors_at(state, "agentReview")().map(|e| view! { <p class="form__error" data-testid="policy-error-agent-review">{e}</p> })}
            </div>
            <label for="policy-stall">"Notify when a PR waits longer than (minutes)"</label>
            <input id="policy-stall" inputmode="numeric" placeholder="30" data-testid="policy-stall"
                prop:value=text(state, |d| d.stall_minutes.clone())
                on:input=move |ev| { let v = event_target_value(&ev); update(state, |d| d.stall_minutes = v.clone()) } />
            {move || errors_at(state, "stallNotifyMinutes")().map(|e| view! { <p class="form__error" data-testid="policy-error-stall">{e}</p> })}
        </div>
    }
}
