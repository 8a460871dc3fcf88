//! The mission's PRs read from its tasks, where the server lists no PRs (Buildd): each
//! task's PR with where it stands, linked to the task. Read-only: the rails, checks and
//! Merge need the PR list.

use buildd_core::markdown::is_web_address;
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

#[component]
pub fn TaskPrList(prs: Vec<TaskPr>) -> impl IntoView {
    view! {
        <p class="muted small" data-testid="not-offered">
            "This server does not list pull requests: these are read from the tasks, without their checks or Merge."
        </p>
        {if prs.is_empty() {
            view! { <p class="muted">"No pull requests yet."</p> }.into_any()
        } else {
            view! {
                <ul class="prs">
                    {prs.into_iter().map(|pr| {
                        let label = pr.number.map(|n| format!("#{n}")).unwrap_or_else(|| "PR".into());
                        let link = match Some(pr.url.clone()).filter(|u| is_web_address(u)) {
                            Some(url) => view! { <a class="pr-link" href=url target="_blank" rel="noopener noreferrer">{label}</a> }.into_any(),
                            None => view! { <span class="pr-link">{label}</span> }.into_any(),
                        };
                        view! {
                            <li class="pr" data-testid="task-pr">
                                <div class="pr__head">
                                    {link}
                                    <A href=format!("/tasks/{}", pr.task_id) attr:class="pr__title">{pr.task_title}</A>
                                    <span class=format!("chip chip--{}", tone(pr.stage)) data-testid="pr-state">{pr.stage.label()}</span>
                                </div>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            }
            .into_any()
        }}
    }
}
