//! The Insights page's pictures over the rows read: the weeks computed once by buildd-core's
//! `weekly`, narrowed to a workspace by the filter, each picture a card.

use super::busy_card::BusyCard;
use super::mission_spend_card::MissionSpendCard;
use super::week_cards::WeekCards;
use super::workspace_filter::WorkspaceFilter;
use buildd_core::insights::team::TeamInsights;
use buildd_core::insights::weekly::weekly;
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn InsightsView(
    rows: Memo<TeamInsights>,
    /// A workspace's name and a mission's title by id.
    names: Memo<(HashMap<String, String>, HashMap<String, String>)>,
    /// A hosted Buildd: only its task list is read.
    hosted: bool,
) -> impl IntoView {
    let weeks = Memo::new(move |_| rows.with(|r| weekly(&r.activity)));
    let chosen = RwSignal::new(None::<String>);
    let ws = Memo::new(move |_| chosen.get());
    let workspaces = Signal::derive(move || {
        let ids = weeks.with(|w| {
            w.first()
                .map(|w| {
                    w.workspaces
                        .iter()
                        .map(|f| f.workspace_id.clone())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        });
        names.with(|(ws, _)| {
            ids.into_iter()
                .map(|id| (id.clone(), ws.get(&id).cloned().unwrap_or(id)))
                .collect::<Vec<_>>()
        })
    });
    let titles = Memo::new(move |_| names.with(|(_, m)| m.clone()));
    let empty = move || weeks.with(Vec::is_empty);
    view! {
        <div class="page__tools" role="search" aria-label="Narrow the pictures">
            <WorkspaceFilter workspaces chosen />
        </div>
        <p class="muted" data-testid="insights-empty" hidden=move || !empty()>
            "Nothing merged, failed or spent in these weeks."
        </p>
        <div class="pictures" data-testid="insights-pictures">
            <WeekCards weeks ws hosted />
            <MissionSpendCard weeks ws titles hosted />
            <BusyCard rows ws hosted />
        </div>
    }
}
