//! The policy form's tier and the fields of that tier.

use super::field::Field;
use super::field_error::FieldError;
use super::policy_state::{text, update, PolicyState};
use super::text_field::TextField;
use crate::components::shared::policy_summary::tier_label;
use buildd_core::{MergeTier, ReviewGate};
use leptos::prelude::*;

const MAX_LINES_HINT: &str = "The most changed lines a PR may have and still merge by itself; \
                              lock files are not counted. Empty: 800.";
const ESCALATE_HINT: &str = "A PR touching one goes to a person whatever the reviewer says. \
                             One path prefix per line.";

/// The tier and its fields, shown unless the draft inherits.
#[component]
pub fn PolicyFields(state: PolicyState, attempted: RwSignal<bool>) -> impl IntoView {
    let tier_is = move |t: MergeTier| {
        move || {
            state
                .draft
                .with(|d| d.as_ref().is_some_and(|d| !d.inherit && d.tier == t))
        }
    };
    view! {
        <div
            class="fields"
            class:hidden=move || state.draft.with(|d| d.as_ref().is_none_or(|d| d.inherit))
        >
            <div class="field">
                <label class="field__label" for="policy-tier">
                    "Tier"
                </label>
                <select
                    id="policy-tier"
                    data-testid="policy-tier"
                    prop:value=text(state, |d| d.tier.to_string())
                    on:change=move |ev| {
                        let t = MergeTier::from(event_target_value(&ev));
                        update(state, |d| d.tier = t.clone())
                    }
                >
                    {MergeTier::ALL
                        .iter()
                        .map(|t| view! { <option value=t.as_str()>{tier_label(t)}</option> })
                        .collect_view()}
                </select>
                <FieldError state=state attempted=attempted field=Field::Tier />
            </div>
            <div class="fields" class:hidden=move || !tier_is(MergeTier::AutoThreshold)()>
                <TextField
                    state=state
                    attempted=attempted
                    field=Field::MaxLines
                    id="policy-max-lines"
                    label="Size cap"
                    placeholder="800"
                    numeric=true
                    hint=MAX_LINES_HINT
                    get=|d| d.max_lines.clone()
                    set=|d, v| d.max_lines = v
                />
                <TextField
                    state=state
                    attempted=attempted
                    field=Field::DenyPaths
                    id="policy-deny"
                    label="Protected paths"
                    paths=true
                    hint="A PR touching one never merges by itself. One path prefix per line."
                    get=|d| d.deny_paths.clone()
                    set=|d, v| d.deny_paths = v
                />
            </div>
            <div class="fields" class:hidden=move || !tier_is(MergeTier::AgentReview)()>
                <TextField
                    state=state
                    attempted=attempted
                    field=Field::Reviewer
                    id="policy-reviewer"
                    label="Reviewer role"
                    placeholder="reviewer"
                    hint="The role or skill of the agent that reviews each PR."
                    get=|d| d.reviewer_role.clone()
                    set=|d, v| d.reviewer_role = v
                />
                <div class="field">
                    <label class="field__label" for="policy-gate">
                        "On approval"
                    </label>
                    <select
                        id="policy-gate"
                        data-testid="policy-gate"
                        prop:value=text(state, |d| d.gate_condition.as_str().to_string())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            update(state, |d| d.gate_condition = ReviewGate::parse(&v))
                        }
                    >
                        <option value=ReviewGate::ApproveAndMerge.as_str()>"Merge"</option>
                        <option value=ReviewGate::ApproveOnly
                            .as_str()>"Approve only; a person merges"</option>
                    </select>
                    <FieldError state=state attempted=attempted field=Field::Gate />
                </div>
                <TextField
                    state=state
                    attempted=attempted
                    field=Field::EscalatePaths
                    id="policy-escalate"
                    label="Paths for a person"
                    paths=true
                    hint=ESCALATE_HINT
                    get=|d| d.escalate_paths.clone()
                    set=|d, v| d.escalate_paths = v
                />
            </div>
            <TextField
                state=state
                attempted=attempted
                field=Field::Stall
                id="policy-stall"
                label="Stall notice"
                placeholder="30"
                numeric=true
                hint="Minutes a PR may wait before the mission is told. Empty: 30."
                get=|d| d.stall_minutes.clone()
                set=|d, v| d.stall_minutes = v
            />
        </div>
    }
}
