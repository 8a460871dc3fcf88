//! The Pictures tab: the mission's burn-up, its spend over time and the timeline of its
//! tasks, one card each, drawn from what the page already read. Where the API behind the
//! tab does not say something (a hosted Buildd: no spend, no claim times, no check-ins) the
//! card says so in place rather than drawing zeros.

use super::burn_up_chart::BurnUpChart;
use super::burn_up_table::BurnUpTable;
use super::legend::Legend;
use super::picture::Picture;
use super::series::{series, Series};
use super::spend_card::SpendCard;
use super::timeline_chart::TimelineChart;
use super::timeline_table::TimelineTable;
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientMission;
use buildd_core::insights::burn_up::BurnUp;
use buildd_core::insights::timeline::Timeline;
use buildd_core::mission::MissionTask;
use buildd_core::organizer_runs::MissionRuns;
use leptos::prelude::*;

const BURN_UP_KEY: &[(&str, &str)] = &[
    ("done", "Done"),
    ("awaiting", "Awaiting merge"),
    ("in-flight", "In flight"),
    ("failed", "Failed"),
    ("not-started", "Not started"),
    ("plan-approved", "Plan approved"),
    ("check-in", "Check-in"),
];
const TIMELINE_KEY: &[(&str, &str)] = &[
    ("wait", "Queued"),
    ("done", "Done"),
    ("running", "Running"),
    ("failed", "Failed"),
    ("cancelled", "Cancelled"),
    ("merge", "PR merged"),
];
const CLAIMS: &str = "Buildd's answers do not say when a task was claimed or finished: bars \
                      run from its filing to its last change, and in-flight spans are not drawn.";
const CHECK_INS: &str = "Check-ins are not marked: Buildd's answers do not list them.";

/// `Some(text)` while `when` holds.
fn said_if(when: Memo<bool>, text: &'static str) -> Signal<Option<String>> {
    Signal::derive(move || when.get().then(|| text.to_string()))
}

#[component]
pub fn Pictures(
    tasks: Memo<Vec<MissionTask>>,
    mission: Memo<ClientMission>,
    runs: PolledRead<Option<MissionRuns>>,
) -> impl IntoView {
    let Series {
        burn,
        spend,
        timeline,
        claims_unknown,
        check_ins_unknown,
    } = series(tasks, mission, runs);
    let said = (RwSignal::new(None), RwSignal::new(None));
    let burn_missing = Signal::derive(move || {
        let parts = [
            claims_unknown.get().then_some(CLAIMS),
            check_ins_unknown.get().then_some(CHECK_INS),
        ];
        let parts: Vec<&str> = parts.into_iter().flatten().collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    });
    view! {
        <div class="pictures" data-testid="pictures">
            <Picture
                title="Burn-up of deliverables"
                testid="burn-up-picture"
                summary=Signal::derive(move || burn.with(BurnUp::describe))
                missing=burn_missing
                said=said.0
                keys="Focus the picture, then ← and → step through the moments; Home and End go to the ends."
                picture=ViewFn::from(move || match burn.with(|b| b.points.is_empty()) {
                    true => ().into_any(),
                    false => {
                        view! {
                            <BurnUpChart burn said=said.0 />
                            <Legend items=BURN_UP_KEY />
                        }
                            .into_any()
                    }
                })
                table=ViewFn::from(move || view! { <BurnUpTable burn /> })
            />
            <SpendCard spend />
            <Picture
                title="Timeline of tasks"
                testid="timeline-picture"
                summary=Signal::derive(move || timeline.with(Timeline::describe))
                missing=said_if(claims_unknown, CLAIMS)
                said=said.1
                keys="Focus the timeline: + and − zoom, ← and → scroll, 0 shows it all, ↑ and ↓ step through the tasks. With the mouse: Ctrl and the wheel zoom, drag to scroll."
                picture=ViewFn::from(move || match timeline.with(|t| t.bars.is_empty()) {
                    true => ().into_any(),
                    false => {
                        view! {
                            <TimelineChart timeline said=said.1 />
                            <Legend items=TIMELINE_KEY />
                        }
                            .into_any()
                    }
                })
                table=ViewFn::from(move || view! { <TimelineTable timeline /> })
            />
        </div>
    }
}
