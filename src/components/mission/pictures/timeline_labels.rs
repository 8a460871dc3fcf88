//! The timeline's titles column: each group's heading (its plan, and when it was approved)
//! above its tasks' titles, marked by wave and, for a retry, by the arrow of a retry.

use super::frame::moment;
use super::timeline_layout::{bar_row, row_y, LABEL_W, LANE, PLOT_W};
use buildd_core::insights::timeline::Timeline;
use leptos::prelude::*;

/// About as many characters as fit the column.
const FITS: usize = 26;

fn fitted(text: &str) -> String {
    if text.chars().count() <= FITS {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(FITS - 1).collect::<String>())
    }
}

#[component]
pub fn TimelineLabels(
    timeline: Memo<Timeline>,
    selected: RwSignal<Option<usize>>,
    /// The rows drawn, `from..to`.
    drawn: RwSignal<(u32, u32)>,
) -> impl IntoView {
    let labels = move || {
        let (from, to) = drawn.get();
        let rows = from..to;
        timeline.with(|tl| {
            let groups = tl.groups.iter().enumerate();
            let headings = groups
                .filter(|(g, group)| rows.contains(&(group.first_lane + *g as u32)))
                .map(|(g, group)| {
                    let y = row_y(group.first_lane + g as u32) + LANE * 0.7;
                    let title = match group.approved_ms {
                        Some(at) => format!("{} · approved {}", group.title, moment(at)),
                        None => group.title.clone(),
                    };
                    view! {
                        <text class="pic__group" x=4 y=y>
                            <title>{title.clone()}</title>
                            {fitted(&title)}
                        </text>
                    }
                });
            let titles = tl
                .bars
                .iter()
                .filter(|bar| rows.contains(&bar_row(bar)))
                .map(|bar| {
                    let y = row_y(bar_row(bar)) + LANE * 0.7;
                    let tag = match (&bar.attempt_of, bar.wave) {
                        (Some(_), _) => "↻ ".to_string(),
                        (None, 0) => String::new(),
                        (None, w) => format!("W{w} "),
                    };
                    view! {
                        <text class="pic__label" x=14 y=y>
                            <title>{bar.title.clone()}</title>
                            {fitted(&format!("{tag}{}", bar.title))}
                        </text>
                    }
                });
            (headings.collect_view(), titles.collect_view())
        })
    };
    // The lane in hand, across titles and plot alike.
    let lane = move || {
        let row = selected
            .get()
            .and_then(|i| timeline.with(|tl| tl.bars.get(i).map(bar_row)))?;
        Some(
            view! { <rect class="pic__lane" x=0 y=row_y(row) width=LABEL_W + PLOT_W height=LANE></rect> },
        )
    };
    view! {
        {lane}
        <g class="pic__labels">{labels}</g>
    }
}
