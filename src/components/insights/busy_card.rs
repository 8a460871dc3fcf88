//! The busiest hours: agent-hours worked in each hour of the day, the active hours the
//! team's missions keep shaded behind, on the clock of their zone (else the reader's).
//! Buildd's answers carry no agent runs: said in place.

use super::bar_chart::BarChart;
use super::bars::Bars;
use super::figures_table::FiguresTable;
use crate::components::mission::pictures::frame::{now_ms, offset_secs};
use crate::components::mission::pictures::legend::Legend;
use crate::components::mission::pictures::picture::Picture;
use buildd_core::duration::span;
use buildd_core::insights::busy_hours::{busy_hours, BusyHours};
use buildd_core::insights::team::{common_hours, TeamInsights};
use leptos::prelude::*;

const NO_RUNS: &str = "Buildd's answers carry no agent runs, so the busiest hours are not drawn.";

fn busy_of(rows: &TeamInsights, ws: Option<&str>) -> BusyHours {
    let hours = common_hours(&rows.active_hours);
    let offset = hours.map_or_else(offset_secs, |h| h.offset_seconds);
    let spans: Vec<_> = (rows.busy.iter())
        .filter(|b| ws.is_none() || b.workspace_id.as_deref() == ws)
        .cloned()
        .collect();
    busy_hours(
        &spans,
        now_ms(),
        |_| offset,
        hours.map(|h| (h.start, h.end)),
    )
}

#[component]
pub fn BusyCard(rows: Memo<TeamInsights>, ws: Memo<Option<String>>, hosted: bool) -> impl IntoView {
    let said = RwSignal::new(None);
    let busy = Memo::new(move |_| rows.with(|r| ws.with(|ws| busy_of(r, ws.as_deref()))));
    let bars = Memo::new(move |_| {
        busy.with(|b| Bars {
            labels: b.hours.iter().map(|h| format!("{:02}", h.hour)).collect(),
            values: b.hours.iter().map(|h| vec![Some(h.agent_hours)]).collect(),
            said: (b.hours.iter())
                .map(|h| {
                    let active = if h.active {
                        "active hours"
                    } else {
                        "outside active hours"
                    };
                    format!(
                        "{:02}:00: {} of agent work, {active}",
                        h.hour,
                        span(h.agent_seconds)
                    )
                })
                .collect(),
            shaded: b
                .hours
                .iter()
                .map(|h| h.active && b.window.is_some())
                .collect(),
        })
    });
    let zone = move || {
        rows.with(|r| match common_hours(&r.active_hours) {
            Some(h) => format!(
                "Hours on the clock of {}, where the team's missions keep their active hours.",
                h.timezone
            ),
            None => "No active mission sets active hours; hours on your clock.".into(),
        })
    };
    let summary = Signal::derive(move || match hosted {
        true => "Not known on this server.".to_string(),
        false => busy.with(BusyHours::describe),
    });
    let rows_of = Signal::derive(move || {
        bars.with(|b| {
            b.labels
                .iter()
                .zip(&b.said)
                .map(|(l, s)| vec![l.clone(), s.clone()])
                .collect()
        })
    });
    view! {
        <Picture
            title="Busiest hours of agents"
            testid="busy-picture"
            summary
            missing=Signal::derive(move || hosted.then(|| NO_RUNS.to_string()))
            said
            keys="Focus the picture, then ← and → step through the hours."
            picture=ViewFn::from(move || {
                (!hosted)
                    .then(|| {
                        view! {
                            <p class="muted small" data-testid="busy-zone">
                                {zone}
                            </p>
                            <BarChart
                                bars
                                series=&["busy"]
                                value_label=buildd_core::duration::hours_tick
                                label=summary
                                testid="busy-picture"
                                said
                            />
                            <Legend items=&[
                                ("in-flight", "Agent-hours"),
                                ("active", "Active hours"),
                            ] />
                        }
                    })
            })
            table=ViewFn::from(move || {
                view! {
                    <FiguresTable
                        caption="Agent work by hour of the day"
                        testid="busy-picture"
                        heads=&["Hour", "Figures"]
                        rows=rows_of
                    />
                }
            })
        />
    }
}
