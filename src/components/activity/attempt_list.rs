//! A task's retries under its row in Activity, oldest first, each a link to its page.

use crate::components::shared::status_badge::StatusBadge;
use crate::format::time_ago;
use buildd_core::activity::ActivityTask;
use leptos::prelude::*;

#[component]
pub fn AttemptList(attempts: Memo<Vec<ActivityTask>>) -> impl IntoView {
    let numbered = move || {
        attempts.with(|a| {
            a.iter()
                .enumerate()
                .map(|(i, t)| (i + 1, t.clone()))
                .collect::<Vec<_>>()
        })
    };
    move || {
        attempts.with(|a| !a.is_empty()).then(|| {
            view! {
                <ol class="activity-attempts" data-testid="activity-attempts" aria-label="Attempts">
                    <For
                        each=numbered
                        key=|(n, t)| (*n, t.id.clone(), t.status.clone(), t.updated_at.clone())
                        let:attempt
                    >
                        {
                            let (n, t) = attempt;
                            view! {
                                <li data-testid="activity-attempt" data-task-id=t.id.clone()>
                                    <a href=format!(
                                        "/tasks/{}",
                                        t.id,
                                    )>{format!("Attempt {}", n + 1)}</a>
                                    <StatusBadge status=t.status.clone() />
                                    <span class="muted small">
                                        {format!("changed {}", time_ago(t.updated_at.as_deref()))}
                                    </span>
                                </li>
                            }
                        }
                    </For>
                </ol>
            }
        })
    }
}
