//! The timeline's bars in the rows drawn (those near the box's view), each over the whole
//! history (zooming only stretches them): a bar a task, the wait from queued to claimed
//! pale, the run from claimed to finished in its outcome's colour, a tick where its PR
//! merged, a line where its plan was approved.

use super::timeline_layout::{bar_row, base, row_y, BAR, LANE};
use buildd_core::insights::timeline::{Bar, Timeline};
use leptos::prelude::*;

/// The narrowest a part of a bar is drawn, so an instant still shows.
const MIN_W: f64 = 1.5;

/// Its outcome as a class and `data-outcome`.
pub fn outcome_key(bar: &Bar) -> &'static str {
    bar.outcome.label()
}

#[component]
pub fn TimelineBars(
    timeline: Memo<Timeline>,
    /// The bar hovered: its index.
    selected: RwSignal<Option<usize>>,
    /// The rows drawn, `from..to`.
    drawn: RwSignal<(u32, u32)>,
) -> impl IntoView {
    let bars =
        move || {
            timeline.with(|tl| {
            let x = base(tl);
            let end = tl.end_ms;
            let span = |from: i64, to: i64| (x.map(from), (x.map(to) - x.map(from)).max(MIN_W));
            let approvals = tl.groups.iter().filter_map(|g| {
                let (at, first) = (g.approved_ms?, g.first_lane + g.lanes);
                let (top, x) = (row_y(g.first_lane), x.map(at));
                Some(view! {
                    <line class="pic__approved" x1=x x2=x y1=top y2=row_y(first + 1)>
                        <title>{format!("{}: approved", g.title)}</title>
                    </line>
                })
            });
            let (from, to) = drawn.get();
            let shown = tl.bars.iter().enumerate();
            let bars = shown.filter(|(_, bar)| (from..to).contains(&bar_row(bar))).map(|(i, bar)| {
                let y = row_y(bar_row(bar)) + (LANE - BAR) / 2.0;
                let claimed = bar.claimed_ms;
                let waited = claimed.or(bar.finished_ms).unwrap_or(end);
                let (wx, ww) = span(bar.queued_ms, waited);
                let run = claimed.map(|c| span(c, bar.finished_ms.unwrap_or(end)));
                let merged = bar.merged_ms.map(|m| x.map(m));
                let key = outcome_key(bar);
                view! {
                    <g
                        class=format!("pic__bar pic__bar--{key}")
                        data-testid="timeline-bar"
                        data-outcome=key
                        data-task-id=bar.task_id.clone()
                        on:pointerenter=move |_| selected.set(Some(i))
                    >
                        <title>{bar.figures()}</title>
                        <rect class="pic__wait" x=wx y=y width=ww height=BAR></rect>
                        {run
                            .map(|(rx, rw)| {
                                view! {
                                    <rect class="pic__run" x=rx y=y width=rw height=BAR></rect>
                                }
                            })}
                        {merged
                            .map(|mx| {
                                view! {
                                    <line
                                        class="pic__merge"
                                        data-testid="timeline-merge"
                                        x1=mx
                                        x2=mx
                                        y1=y - 3.0
                                        y2=y + BAR + 3.0
                                    ></line>
                                }
                            })}
                    </g>
                }
            });
            (approvals.collect_view(), bars.collect_view())
        })
        };
    view! { <g class="pic__bars">{bars}</g> }
}
