//! `<RowMeta>`: a task row's small print: its PR, its dependencies, what it waits on, its
//! effort and when it last changed.

use super::effort::effort;
use crate::format::time_ago;
use buildd_core::markdown::is_web_address;
use buildd_core::MissionTask;
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn RowMeta(
    task: Memo<MissionTask>,
    /// Every task's title by id, to name dependencies.
    titles: Memo<HashMap<String, String>>,
    /// What holds the task back, when it is blocked.
    waiting_on: Memo<Vec<String>>,
) -> impl IntoView {
    let pr = Memo::new(move |_| {
        task.with(|t| {
            t.workers.first().and_then(|w| {
                w.pr_url
                    .clone()
                    .filter(|u| is_web_address(u))
                    .map(|url| (url, w.pr_number, w.merged_at.is_some()))
            })
        })
    });
    let depends_on = Memo::new(move |_| task.with(|t| t.depends_on.clone()));
    let effort = Memo::new(move |_| task.with(effort));
    let dependency = move |d: String| {
        let title = {
            let d = d.clone();
            move || {
                let title = titles.with(|t| t.get(&d).cloned());
                format!("⤷ {}", title.unwrap_or_else(|| d.chars().take(8).collect()))
            }
        };
        view! {
            <a href=format!("/tasks/{d}") class="dep-chip" title="Depends on this task">
                {title}
            </a>
        }
    };
    view! {
        <div class="task-row__meta small muted">
            {move || {
                pr.get()
                    .map(|(url, number, merged)| {
                        let label = match number {
                            Some(n) => format!("PR #{n}"),
                            None => "PR".to_string(),
                        };
                        let state = if merged { "merged" } else { "open" };
                        view! {
                            <a class="pr-link" href=url target="_blank" rel="noopener noreferrer">
                                {format!("{label} · {state}")}
                            </a>
                        }
                    })
            }} <For each=move || depends_on.get() key=String::clone children=dependency />
            {move || {
                waiting_on
                    .with(|w| {
                        (!w.is_empty())
                            .then(|| {
                                view! {
                                    <span class="waiting-on" data-testid="waiting-on">
                                        {format!("waiting on {}", w.join(", "))}
                                    </span>
                                }
                            })
                    })
            }}
            {move || { effort.get().map(|e| view! { <span data-testid="task-cost">{e}</span> }) }}
            <span>{move || task.with(|t| time_ago(t.updated_at.as_deref()))}</span>
        </div>
    }
}
