//! `<TaskPrLink>`: the link to a task's PR, with whether it is merged.

use buildd_core::client::ClientTask;
use buildd_core::markdown::is_web_address;
use leptos::prelude::*;

/// Nothing unless the task names a PR at a web address.
#[component]
pub fn TaskPrLink(task: Memo<ClientTask>) -> impl IntoView {
    move || {
        task.with(|t| {
            t.pr_url.clone().filter(|u| is_web_address(u)).map(|url| {
                let label = t
                    .pr_number
                    .map(|n| format!("PR #{n}"))
                    .unwrap_or_else(|| "Pull request".into());
                let state = if t.merged_at.is_some() {
                    "merged"
                } else {
                    "open"
                };
                view! {
                    <p>
                        <a
                            class="pr-link"
                            href=url
                            target="_blank"
                            rel="noopener noreferrer"
                            data-testid="task-pr"
                        >
                            {format!("{label} · {state}")}
                        </a>
                    </p>
                }
            })
        })
    }
}
