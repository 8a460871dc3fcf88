//! The mission's PRs read from its tasks, where the server lists no PRs (Buildd): each
//! task's PR with where it stands, linked to the task, and Merge for an open one, judged
//! by the mission's merge policy before Buildd is asked.

use crate::components::shared::merge_on_buildd::MergeOnBuildd;
use crate::state::rows::{positions, row_at};
use buildd_core::markdown::is_web_address;
use buildd_core::merge_policy::EffectivePolicy;
use buildd_core::task_prs::{TaskPr, TaskPrStage};
use leptos::prelude::*;
use leptos_router::components::A;

fn tone(stage: TaskPrStage) -> &'static str {
    match stage {
        TaskPrStage::Merged | TaskPrStage::CiGreen => "ok",
        TaskPrStage::Closed => "muted",
        TaskPrStage::CiRunning | TaskPrStage::Open => "info",
        TaskPrStage::CiFailed => "bad",
        TaskPrStage::Conflict => "warn",
    }
}

const FROM_TASKS: &str = "This server does not list pull requests: these are read from the \
                          tasks, with where CI stands but not their files or checks.";

#[component]
pub fn TaskPrList(
    #[prop(into)] prs: Signal<Vec<TaskPr>>,
    /// The policy the mission's PRs follow, and their workspace, for Merge.
    #[prop(into)]
    policy: Signal<EffectivePolicy>,
    #[prop(into)] workspace_id: Signal<Option<String>>,
    refresh: Callback<()>,
) -> impl IntoView {
    let empty = Memo::new(move |_| prs.with(Vec::is_empty));
    let at = positions(move || prs.with(|p| p.iter().map(|pr| pr.task_id.clone()).collect()));
    let item = move |task_id: String| {
        let pr = row_at(at, task_id, move |i| prs.with(|p| p.get(i).cloned()));
        let link = move || {
            pr.with(|pr| {
                let label = pr
                    .number
                    .map(|n| format!("#{n}"))
                    .unwrap_or_else(|| "PR".into());
                match Some(pr.url.clone()).filter(|u| is_web_address(u)) {
                    Some(url) => view! {
                        <a class="pr-link" href=url target="_blank" rel="noopener noreferrer">
                            {label}
                        </a>
                    }
                    .into_any(),
                    None => view! { <span class="pr-link">{label}</span> }.into_any(),
                }
            })
        };
        let stage = move || pr.with(|pr| pr.stage);
        let merge = move || {
            stage()
                .is_open()
                .then(|| view! { <MergeOnBuildd pr policy workspace_id refresh /> })
        };
        view! {
            <li class="pr" data-testid="task-pr">
                <div class="pr__head">
                    {link}
                    <A
                        href=pr.with_untracked(|pr| format!("/tasks/{}", pr.task_id))
                        attr:class="pr__title"
                    >
                        {move || pr.with(|pr| pr.task_title.clone())}
                    </A>
                    <span
                        class=move || format!("chip chip--{}", tone(stage()))
                        data-testid="pr-state"
                    >
                        {move || stage().label()}
                    </span>
                </div>
                {merge}
            </li>
        }
    };
    view! {
        <p class="muted small" data-testid="not-offered">
            {FROM_TASKS}
        </p>
        {move || {
            if empty.get() {
                view! { <p class="muted">"No pull requests yet."</p> }.into_any()
            } else {
                view! {
                    <ul class="prs">
                        <For
                            each=move || {
                                prs.with(|p| {
                                    p.iter().map(|pr| pr.task_id.clone()).collect::<Vec<_>>()
                                })
                            }
                            key=String::clone
                            children=item
                        />
                    </ul>
                }
                    .into_any()
            }
        }}
    }
}
