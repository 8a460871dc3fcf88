//! A mission's pictures: its burn-up, its spend over time against the budget and the
//! timeline of its tasks, drawn as SVG from core's series, scales and paths, each with its
//! figures read out on hover or focus and a table one click away. In the split build
//! (`lazy`) they are a chunk of their own, fetched the first time the tab opens.

mod axes;
mod burn_up_chart;
mod burn_up_table;
pub(crate) mod cursor;
pub(crate) mod frame;
pub(crate) mod legend;
pub(crate) mod picture;
mod pictures_tab;
mod plan_forecast;
mod series;
mod spend_card;
mod spend_chart;
mod spend_table;
mod timeline_bars;
mod timeline_chart;
mod timeline_labels;
mod timeline_layout;
mod timeline_table;

use crate::api::ApiError;
use crate::state::first_screen::{split_off, Later};
use crate::state::refresh::PolledRead;
use crate::state::stylesheet::{link, PICTURES};
use buildd_core::client::ClientMission;
use buildd_core::mission::MissionTask;
use buildd_core::organizer_runs::MissionRuns;
use leptos::prelude::*;
use pictures_tab::Pictures;

split_off!(
    mission_pictures,
    AnyView,
    preload pictures_chunk,
    /// The Pictures tab's content: `tasks` and `mission` as the page read them, `runs` its
    /// organizer runs and check-ins (`None` where the API does not list them).
    pub fn pictures_view(
        tasks: Memo<Vec<MissionTask>>,
        mission: Memo<ClientMission>,
        runs: PolledRead<Option<MissionRuns>>,
    ) -> Later<Result<AnyView, ApiError>> {
        // Made here, in the page's reactive scope; shown once its styles are in.
        let view = view! { <Pictures tasks mission runs /> }.into_any();
        Box::pin(async move {
            link(PICTURES).await;
            Ok(view)
        })
    }
);

/// Fetches the pictures' code and styles ahead of the tab's first opening, so opening it
/// draws at once. A fetch that fails is left for the opening to retry and say.
pub async fn prefetch_pictures() {
    let _ = pictures_chunk().await;
    link(PICTURES).await;
}
