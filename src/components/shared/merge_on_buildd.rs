//! Merge for a PR read from a hosted Buildd's tasks. Buildd's merge for a key applies no
//! merge policy, so the mission's policy judges it here first (buildd-core's
//! `hosted_merge`): refused in place with the rail that holds it, or merged past the rails
//! Buildd cannot show once the person confirms; Buildd's answer is shown as it comes.

use super::form_error::FormError;
use crate::api;
use crate::state::mutation::{refused, Mutation};
use buildd_core::hosted_merge::{hosted_merge, HostedMerge};
use buildd_core::merge_policy::EffectivePolicy;
use buildd_core::requests::prs::BuilddMerged;
use buildd_core::task_prs::TaskPr;
use leptos::prelude::*;

/// Buildd's answer, in words.
fn answered(answer: &BuilddMerged) -> String {
    let said = answer.message.clone().unwrap_or_default();
    match (answer.merged, said.is_empty()) {
        (true, _) => "Merged.".into(),
        (false, true) => "Buildd did not merge it.".into(),
        (false, false) => format!("Buildd did not merge it: {said}"),
    }
}

#[component]
pub fn MergeOnBuildd(
    pr: Memo<TaskPr>,
    #[prop(into)] policy: Signal<EffectivePolicy>,
    #[prop(into)] workspace_id: Signal<Option<String>>,
    refresh: Callback<()>,
    /// Asked already (where the PR was read on a person's Merge): judged at once.
    #[prop(optional)]
    opened: bool,
) -> impl IntoView {
    let verdict = Memo::new(move |_| pr.with(|pr| policy.with(|p| hosted_merge(pr, p))));
    // What the person sees before anything is sent: the refusal, or the rails to confirm.
    let asked = RwSignal::new(false);
    let merge = Mutation::request(
        move |c, (number, workspace): &(i64, String)| {
            let (number, workspace) = (*number, workspace.clone());
            async move {
                let answer = api::merge_on_buildd(&c, number, &workspace).await?;
                refresh.run(());
                Ok(answered(&answer))
            }
        },
        refused("Not merged"),
    );
    let send = move || {
        let target = pr.with(|pr| pr.number).zip(workspace_id.get_untracked());
        match target {
            Some(target) => merge.dispatch(target),
            None => merge.fail("The PR's number or workspace is not known.".into()),
        }
    };
    let open = move || {
        merge.clear();
        asked.set(true);
        if matches!(verdict.get_untracked(), HostedMerge::Allowed { ref past } if past.is_empty()) {
            send();
        }
    };
    if opened {
        open();
    }
    let step = move || {
        if !asked.get() {
            return None;
        }
        Some(match verdict.get() {
            HostedMerge::Refused { rail, reason } => {
                let rail = rail
                    .map(|r| format!("the {} rail: ", r.label()))
                    .unwrap_or_default();
                view! {
                    <p class="form__error" role="alert" data-testid="merge-refused">
                        {format!("The merge policy holds it, {rail}{reason}.")}
                    </p>
                }
                .into_any()
            }
            HostedMerge::Allowed { past } if !past.is_empty() => {
                let rails = past
                    .iter()
                    .map(|(rail, why)| view! { <li>{format!("{}: {why}", rail.label())}</li> })
                    .collect_view();
                view! {
                    <div class="notice" data-testid="merge-past">
                        <p>"The policy lets a person merge it past:"</p>
                        <ul>{rails}</ul>
                        <button
                            class="button button--small button--primary"
                            data-testid="merge-past-confirm"
                            prop:disabled=move || merge.busy()
                            on:click=move |_| send()
                        >
                            "Merge past it"
                        </button>
                    </div>
                }
                .into_any()
            }
            HostedMerge::Allowed { .. } => ().into_any(),
        })
    };
    view! {
        <span class="merge-on-buildd">
            <button
                class="button button--small"
                data-testid="merge-pr"
                prop:disabled=move || merge.busy()
                on:click=move |_| open()
            >
                "Merge…"
            </button>
            {step}
            {move || {
                merge
                    .answer()
                    .map(|a| {
                        view! {
                            <p role="status" data-testid="merge-answer">
                                {a}
                            </p>
                        }
                    })
            }}
            <FormError error=Signal::derive(move || merge.error()) testid="merge-error" />
        </span>
    }
}
