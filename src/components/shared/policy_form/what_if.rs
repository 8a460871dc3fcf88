//! "What would this have done?" under the merge-policy form: the policy being typed replayed
//! over the team's recorded PRs of the last weeks (`GET /api/insights/prs`) in the browser,
//! by buildd-core's `replay_policy` (the server's own merge decision), beside the policies
//! as they stand. Shown before Save; on a hosted Buildd, which records no such facts, said so.

use super::policy_state::PolicyState;
use super::what_if_prs::WhatIfPrs;
use crate::api::{self, ApiError};
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::request::with_connection;
use buildd_core::capabilities::Extra;
use buildd_core::insights::what_if::{
    replay_policy, weeks_before, PolicyReplay, Proposal, RecordedPr,
};
use leptos::prelude::*;

/// The periods offered; the widest is read once and narrowed here.
const PERIODS: [u32; 4] = [2, 4, 8, 12];
const FIRST_PERIOD: u32 = 4;

const NOT_OFFERED: &str = "Not known on this server: Buildd's answers do not carry the \
                           checks, files and reviews a replay needs.";

/// What the read gave: `None` while it runs.
type Read = Option<Result<Option<Vec<RecordedPr>>, ApiError>>;

#[component]
pub fn PolicyWhatIf(
    state: PolicyState,
    /// Whose policy the form sets; its PRs are the ones replayed.
    scope: Proposal,
) -> impl IntoView {
    let offered = use_capabilities();
    let connection = use_connection();
    let scope = StoredValue::new(scope);
    let read = LocalResource::new(move || {
        let ask = offered.known();
        let request = with_connection(&connection, |c| async move {
            let widest = i64::from(PERIODS[PERIODS.len() - 1]);
            api::recorded_prs(&c, widest).await
        });
        async move {
            if !ask {
                offered.known_soon().await;
            }
            let answer = offered.read(Extra::PolicyReplay, request).await?;
            let covered = |p: &RecordedPr| scope.with_value(|s| s.covers(p));
            Ok(answer.map(|a| a.prs.into_iter().filter(covered).collect()))
        }
    });
    let prs: Memo<Read> = Memo::new(move |_| read.get());
    let weeks = RwSignal::new(FIRST_PERIOD);
    let since = Memo::new(move |_| weeks_before(js_sys::Date::now() as i64, weeks.get()));
    let replay = move |proposal: Option<&Proposal>| {
        prs.with(|r| match r {
            Some(Ok(Some(prs))) => replay_policy(prs, proposal, since.get()),
            _ => PolicyReplay::default(),
        })
    };
    let now = Memo::new(move |_| replay(None));
    // `None` while the draft has an error: nothing to replay.
    let proposed = Memo::new(move |_| {
        let policy = state
            .draft
            .with(|d| d.as_ref().map(|d| d.to_policy()))?
            .ok()?;
        Some(replay(Some(&scope.with_value(|s| s.with(policy)))))
    });
    let figures = move || {
        view! {
            <label class="field field--inline">
                <span class="field__label">"Over the last"</span>
                <select
                    data-testid="what-if-weeks"
                    on:change=move |ev| {
                        if let Ok(w) = event_target_value(&ev).parse() {
                            weeks.set(w);
                        }
                    }
                >
                    {PERIODS
                        .map(|w| {
                            view! {
                                <option value=w.to_string() prop:selected=move || weeks.get() == w>
                                    {format!("{w} weeks")}
                                </option>
                            }
                        })}
                </select>
            </label>
            <p data-testid="what-if-proposed" aria-live="polite">
                <strong>"With this policy: "</strong>
                {move || {
                    proposed
                        .with(|p| p.as_ref().map(PolicyReplay::describe))
                        .unwrap_or_else(|| "fix the fields above to see what it would do.".into())
                }}
            </p>
            <p class="muted" data-testid="what-if-now">
                "As things stand: "
                {move || now.with(PolicyReplay::describe)}
            </p>
            <WhatIfPrs now proposed />
        }
    };
    view! {
        <section class="what-if" aria-labelledby="what-if-title" data-testid="policy-what-if">
            <h3 class="what-if__title" id="what-if-title">
                "What would this have done?"
            </h3>
            {move || {
                prs.with(|r| match r {
                    None => view! { <p class="muted">"Reading the team's PRs…"</p> }.into_any(),
                    Some(Ok(None)) => {
                        view! {
                            <p class="muted" data-testid="what-if-not-offered">
                                {NOT_OFFERED}
                            </p>
                        }
                            .into_any()
                    }
                    Some(Err(e)) => {
                        view! {
                            <p class="form__error" role="alert">
                                {format!("Could not read the team's PRs: {e}")}
                            </p>
                        }
                            .into_any()
                    }
                    Some(Ok(Some(_))) => figures().into_any(),
                })
            }}
        </section>
    }
}
