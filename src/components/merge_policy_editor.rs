//! The mission's merge policy: inherit the workspace default or override it, with the
//! effective policy and why. The server's errors are shown at the field they name.

use crate::api::{self, ApiError};
use crate::components::policy_summary::{tier_label, PolicySummary};
use crate::state::connection::Connection;
use crate::state::write::Write;
use buildd_core::client::ClientMission;
use buildd_core::merge_policy::{validate_merge_policy, MergePolicy, TIERS};
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

    /// The server's refusals, each without the request's prefix (`threshold.maxLines: …`).
    fn server_errors(&self) -> Vec<String> {
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
    fn draft_errors(&self) -> Vec<String> {
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
enum Field {
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
    fn of(error: &str) -> Option<Field> {
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
    fn error_id(self) -> &'static str {
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
fn field_error(state: PolicyState, attempted: RwSignal<bool>, field: Field) -> Option<String> {
    let server = state.server_errors();
    let draft = state.draft_errors();
    let from_server = server.iter().find(|e| Field::of(e) == Some(field));
    let from_draft = draft
        .iter()
        .filter(|e| Field::of(e) == Some(field))
        .find(|e| attempted.get() || !e.ends_with("is required (a role or skill slug)"));
    from_server.or(from_draft).map(|e| in_words(e))
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
                    <PolicySummary policy=effective.policy.clone() />
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

/// The edit form: inherit or set a policy, the tier's fields with what is wrong with each,
/// Save and Cancel, and with `reset` a "Reset to inherited" that saves `null` at once. A
/// draft with an error is not sent: the first field in error takes the focus.
#[component]
pub fn PolicyForm(
    state: PolicyState,
    #[prop(into)] inherit_label: String,
    override_label: &'static str,
    save: Callback<Value>,
    #[prop(optional)] reset: bool,
) -> impl IntoView {
    let attempted = RwSignal::new(false);
    let form = NodeRef::<leptos::html::Form>::new();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        attempted.set(true);
        if !state.draft_errors().is_empty() {
            use wasm_bindgen::JsCast;
            let invalid = form
                .get_untracked()
                .and_then(|f| f.query_selector("[aria-invalid=true]").ok().flatten())
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(input) = invalid {
                let _ = input.focus();
            }
            return;
        }
        if let Some(d) = state.draft.get_untracked() {
            save.run(d.to_json());
        }
    };
    view! {
        <form class="form" node_ref=form on:submit=submit novalidate>
            <fieldset class="choices">
                <legend class="sr-only">"Policy"</legend>
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
            <PolicyFields state=state attempted=attempted />
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

/// A field's error under it, in words, named by its input's `aria-describedby`.
#[component]
fn FieldError(state: PolicyState, attempted: RwSignal<bool>, field: Field) -> impl IntoView {
    move || {
        field_error(state, attempted, field).map(|e| {
            view! { <p class="form__error" id=field.error_id() data-testid=field.error_id()>{e}</p> }
        })
    }
}

/// A text field of the form: its label, hint, input (a box of lines for a list of paths)
/// and what is wrong with it. Its id is its test id too.
#[component]
#[allow(clippy::too_many_arguments)]
fn TextField(
    state: PolicyState,
    attempted: RwSignal<bool>,
    field: Field,
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    #[prop(optional)] placeholder: &'static str,
    #[prop(optional)] numeric: bool,
    #[prop(optional)] paths: bool,
    get: fn(&PolicyDraft) -> String,
    set: fn(&mut PolicyDraft, String),
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let described = format!("{hint_id} {}", field.error_id());
    let invalid = move || field_error(state, attempted, field).is_some().to_string();
    let on_input = move |ev| {
        let v = event_target_value(&ev);
        update(state, |d| set(d, v.clone()))
    };
    let control = if paths {
        view! {
            <textarea id=id rows="2" data-testid=id aria-describedby=described aria-invalid=invalid
                prop:value=text(state, get) on:input=on_input></textarea>
        }
        .into_any()
    } else {
        view! {
            <input id=id data-testid=id placeholder=placeholder
                inputmode=numeric.then_some("numeric")
                aria-describedby=described aria-invalid=invalid
                prop:value=text(state, get) on:input=on_input />
        }
        .into_any()
    };
    view! {
        <div class="field">
            <label class="field__label" for=id>{label}</label>
            <p class="field__hint" id=hint_id>{hint}</p>
            {control}
            <FieldError state=state attempted=attempted field=field />
        </div>
    }
}

/// The tier and its fields, shown unless the draft inherits.
#[component]
fn PolicyFields(state: PolicyState, attempted: RwSignal<bool>) -> impl IntoView {
    let tier_is = move |t: &'static str| {
        move || {
            state
                .draft
                .with(|d| d.as_ref().is_some_and(|d| !d.inherit && d.tier == t))
        }
    };
    view! {
        <div class="fields" class:hidden=move || state.draft.with(|d| d.as_ref().is_none_or(|d| d.inherit))>
            <div class="field">
                <label class="field__label" for="policy-tier">"Tier"</label>
                <select id="policy-tier" data-testid="policy-tier"
                    prop:value=text(state, |d| d.tier.clone())
                    on:change=move |ev| { let t = event_target_value(&ev); update(state, |d| d.tier = t.clone()) }>
                    {TIERS.iter().map(|t| view! { <option value=*t>{tier_label(t)}</option> }).collect_view()}
                </select>
                <FieldError state=state attempted=attempted field=Field::Tier />
            </div>
            <div class="fields" class:hidden=move || !tier_is("auto-threshold")()>
                <TextField state=state attempted=attempted field=Field::MaxLines id="policy-max-lines"
                    label="Size cap" placeholder="800" numeric=true
                    hint="The most changed lines a PR may have and still merge by itself; lock files are not counted. Empty: 800."
                    get=|d| d.max_lines.clone() set=|d, v| d.max_lines = v />
                <TextField state=state attempted=attempted field=Field::DenyPaths id="policy-deny"
                    label="Protected paths" paths=true
                    hint="A PR touching one never merges by itself. One path prefix per line."
                    get=|d| d.deny_paths.clone() set=|d, v| d.deny_paths = v />
            </div>
            <div class="fields" class:hidden=move || !tier_is("agent-review")()>
                <TextField state=state attempted=attempted field=Field::Reviewer id="policy-reviewer"
                    label="Reviewer role" placeholder="reviewer"
                    hint="The role or skill of the agent that reviews each PR."
                    get=|d| d.reviewer_role.clone() set=|d, v| d.reviewer_role = v />
                <div class="field">
                    <label class="field__label" for="policy-gate">"On approval"</label>
                    <select id="policy-gate" data-testid="policy-gate" prop:value=text(state, |d| d.gate_condition.clone())
                        on:change=move |ev| { let v = event_target_value(&ev); update(state, |d| d.gate_condition = v.clone()) }>
                        <option value="approve-and-merge">"Merge"</option>
                        <option value="approve-only">"Approve only; a person merges"</option>
                    </select>
                    <FieldError state=state attempted=attempted field=Field::Gate />
                </div>
                <TextField state=state attempted=attempted field=Field::EscalatePaths id="policy-escalate"
                    label="Paths for a person" paths=true
                    hint="A PR touching one goes to a person whatever the reviewer says. One path prefix per line."
                    get=|d| d.escalate_paths.clone() set=|d, v| d.escalate_paths = v />
            </div>
            <TextField state=state attempted=attempted field=Field::Stall id="policy-stall"
                label="Stall notice" placeholder="30" numeric=true
                hint="Minutes a PR may wait before the mission is told. Empty: 30."
                get=|d| d.stall_minutes.clone() set=|d, v| d.stall_minutes = v />
        </div>
    }
}
