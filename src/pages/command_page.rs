//! The command center: every mission in the planning loop — Planning (steps 1–2) and
//! Execution (steps 3–5) — and "Waiting on you", everything a person must act on, oldest
//! first. Filters (`workspace`, `mode`, `step`) live in the URL; j/k move between missions,
//! Enter opens one, a/r open its plan in review to approve or reject, ? lists the keys.

use crate::components::command::command_keys::command_keys;
use crate::components::command::mission_section::MissionSection;
use crate::components::command::waiting_card::WaitingCard;
use crate::components::command::waiting_summary::waiting_summary;
use crate::components::shared::polled::Polled;
use crate::state::board::{use_board, BoardState};
use crate::state::first_screen::use_first_screen;
use crate::state::rows::positions;
use crate::state::title::page_title;
use buildd_core::planning_loop::loop_step;
use buildd_core::MissionStatus;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use send_wrapper::SendWrapper;

#[component]
pub fn CommandPage() -> impl IntoView {
    page_title(|| Some("Command center".into()));
    let query = use_query_map();
    let board = use_board();
    let BoardState {
        missions, waiting, ..
    } = board;
    let first = use_first_screen();
    super::first_screen_once(missions);
    let workspace = Memo::new(move |_| query.with(|q| q.get("workspace")));
    let step_filter = Memo::new(move |_| query.with(|q| q.get("step")));
    let mode_filter = Memo::new(move |_| query.with(|q| q.get("mode")));
    let selected = RwSignal::new(0usize);
    // The missions shown with their step, planning first: the rows' order and the keys'.
    let rows = Memo::new(move |_| {
        let shown = missions
            .with_data(|m| {
                m.iter()
                    .filter(|m| m.status == MissionStatus::Active)
                    .filter(|m| {
                        workspace.with(|w| {
                            w.as_ref()
                                .is_none_or(|w| m.workspace_id.as_ref() == Some(w))
                        })
                    })
                    .filter(|m| mode_filter.with(|f| f.as_ref().is_none_or(|f| *f == m.mode)))
                    .map(|m| (m.id.clone(), loop_step(&m.tasks)))
                    .filter(|(_, s)| {
                        step_filter
                            .with(|f| f.as_ref().is_none_or(|f| *f == s.number().to_string()))
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let (mut planning, execution): (Vec<_>, Vec<_>) =
            shown.into_iter().partition(|(_, s)| s.is_planning());
        planning.extend(execution);
        planning
    });
    let navigate = use_navigate();
    let go = Callback::new(move |to: String| navigate(&to, Default::default()));
    let help = RwSignal::new(false);
    let at = positions(move || {
        missions
            .with_data(|all| all.iter().map(|m| m.id.clone()).collect())
            .unwrap_or_default()
    });
    view! {
        <section class="page command-center" data-testid="command-center">
            <header class="page__head">
                <h1>"Command center"</h1>
                // The keys, and the list of them, come with the chunk that follows the rows.
                {move || Suspend::new(
                    SendWrapper::new(async move {
                        first.shown().await;
                        command_keys(rows, missions, selected, help, go)
                            .await
                            .unwrap_or_else(|_| ().into_any())
                    }),
                )}
            </header>
            // On a narrow window what waits is summed up above the rows, in a place of a
            // fixed height, and listed below them; on a wide one it is listed beside them.
            // Both show once the missions are in (style/), not as empty boxes that would
            // move then.
            <p class="command-center__summary" data-testid="waiting-summary">
                {move || {
                    Suspend::new(
                        SendWrapper::new(async move {
                            first.shown().await;
                            waiting_summary(waiting).await.unwrap_or_else(|_| ().into_any())
                        }),
                    )
                }}
            </p>
            <Polled read=missions loading="Loading missions…" let:_missions>
                <div class="command-center__rows">
                    <section data-testid="planning-missions">
                        <h2>"Planning"</h2>
                        <MissionSection planning=true rows missions at selected />
                    </section>
                    <section data-testid="execution-missions">
                        <h2>"Execution"</h2>
                        <MissionSection planning=false rows missions at selected />
                    </section>
                </div>
            </Polled>
            <WaitingCard board first />
        </section>
    }
}
