//! The timeline as a table: a row a task, in the picture's order (by plan, then wave), when
//! it was queued, claimed and finished, its outcome and its PR.

use super::frame::moment;
use buildd_core::insights::timeline::Timeline;
use leptos::prelude::*;

const COLUMNS: [&str; 8] = [
    "Task", "Group", "Wave", "Outcome", "Queued", "Claimed", "Finished", "PR",
];

#[component]
pub fn TimelineTable(timeline: Memo<Timeline>) -> impl IntoView {
    let when = |ms: Option<i64>| ms.map(moment).unwrap_or_else(|| "—".into());
    let rows = move || {
        timeline.with(|tl| {
            tl.bars
                .iter()
                .map(|b| {
                    let group = tl.groups.get(b.group).map(|g| g.title.clone());
                    let pr = match (b.pr_number, b.merged_ms) {
                        (Some(n), Some(at)) => format!("#{n}, merged {}", moment(at)),
                        (Some(n), None) => format!("#{n}, open"),
                        (None, _) => "—".into(),
                    };
                    let retry = b.attempt_of.as_ref().map(|_| " (retry)");
                    view! {
                        <tr data-testid="timeline-row">
                            <th scope="row">{b.title.clone()} {retry}</th>
                            <td>{group}</td>
                            <td>{b.wave}</td>
                            <td>{b.outcome.label()}</td>
                            <td>{moment(b.queued_ms)}</td>
                            <td>{when(b.claimed_ms)}</td>
                            <td>{when(b.finished_ms)}</td>
                            <td>{pr}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="pic__tables" role="region" aria-label="Timeline as a table" tabindex="0">
            <table class="pic__table" data-testid="timeline-table">
                <caption>"The mission's tasks, grouped by plan and wave"</caption>
                <thead>
                    <tr>{COLUMNS.map(|c| view! { <th scope="col">{c}</th> }).collect_view()}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
