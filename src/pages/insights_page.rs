//! Insights: the team's weeks and its agents' busiest hours, read once (`GET /api/insights`,
//! or a hosted Buildd's task list) and kept fresh; the figures are buildd-core's, computed
//! here from the rows.

use super::polled_api;
use crate::api;
use crate::components::insights::insights_view::InsightsView;
use crate::components::mission::pictures::frame::now_ms;
use crate::components::shared::polled::Polled;
use crate::state::board::use_board;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use crate::state::stylesheet::{link, PICTURES};
use crate::state::title::page_title;
use buildd_core::capabilities::Extra;
use buildd_core::insights::team::{TeamInsights, DEFAULT_WEEKS};
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn InsightsPage() -> impl IntoView {
    page_title(|| Some("Insights".into()));
    let connection = use_connection();
    let offered = use_capabilities();
    let read = polled(move || async move {
        // The pictures' stylesheet loads beside the read, and the read answers only once it
        // is in: a picture is never drawn unstyled (wider than a phone's screen).
        let styled = link(PICTURES);
        // Loading until the capabilities are in: they say which read answers.
        offered.known_soon().await;
        let server = offered.has_untracked(Extra::Insights);
        let answer = with_connection(&connection, |c| async move {
            api::insights(&c, DEFAULT_WEEKS, now_ms(), server).await
        })
        .await;
        styled.await;
        answer
    });
    super::first_screen_once(read);
    let missions = use_board().missions;
    let workspaces = polled_api(|c| async move { api::workspaces(&c).await });
    let names = Memo::new(move |_| {
        let ws: HashMap<String, String> = (workspaces.data().iter())
            .flat_map(|l| l.workspaces.iter().map(|w| (w.id.clone(), w.name.clone())))
            .collect();
        let titles: HashMap<String, String> = (missions.data().iter())
            .flat_map(|l| l.iter().map(|m| (m.id.clone(), m.title.clone())))
            .collect();
        (ws, titles)
    });
    view! {
        <section class="page insights" data-testid="insights-page">
            <header class="page__head">
                <h1>"Insights"</h1>
                <p class="muted">
                    {format!(
                        "The team's last {DEFAULT_WEEKS} weeks, a column a week (ISO weeks, UTC).",
                    )}
                </p>
            </header>
            <Polled read loading="Loading insights…" let:rows>
                {
                    let hosted = !offered.has_untracked(Extra::Insights);
                    let rows = Memo::new(move |_| TeamInsights::clone(&rows.get()));
                    view! { <InsightsView rows names hosted /> }
                }
            </Polled>
        </section>
    }
}
