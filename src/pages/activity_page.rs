//! Activity: every task of the team, missions or not, newest change first, a page at a
//! time. Its filters, search and grouping live in the address (see `ActivityView`), so a
//! shared link shows the same view; New task files one on a mission or on none.

use super::polled_api;
use crate::api;
use crate::components::activity::activity_filters::ActivityFilters;
use crate::components::activity::activity_list::ActivityList;
use crate::components::activity::activity_search::ActivitySearch;
use crate::components::activity::activity_view::ActivityView;
use crate::components::activity::choices::Choices;
use crate::components::activity::new_activity_task::NewActivityTask;
use crate::components::shared::polled::Polled;
use crate::state::activity::activity_read;
use crate::state::board::use_board;
use crate::state::title::page_title;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn ActivityPage() -> impl IntoView {
    page_title(|| Some("Activity".into()));
    let query = use_query_map();
    let shown = Memo::new(move |_| query.with(ActivityView::from_query));
    let read = activity_read(Memo::new(move |_| shown.with(|v| v.query.clone())));
    super::first_screen_once(read.first);
    // The board keeps the team's missions already; the workspaces are read here.
    let missions = use_board().missions;
    let workspaces = polled_api(|c| async move { api::workspaces(&c).await });
    let choices = Memo::new(move |_| {
        let missions = missions.data();
        let workspaces = workspaces.data();
        Choices::of(
            missions.as_deref().map(Vec::as_slice),
            workspaces.as_deref(),
        )
    });
    let grouping = Signal::derive(move || shown.with(|v| v.grouping));
    let narrowed = Signal::derive(move || shown.with(ActivityView::narrowed));
    let refresh = read.first.reload;
    view! {
        <section class="page activity" data-testid="activity-page">
            <header class="page__head">
                <h1>"Activity"</h1>
            </header>
            <div class="page__tools activity__tools" role="search" aria-label="Filter tasks">
                <ActivitySearch shown />
                <ActivityFilters
                    shown
                    missions=Signal::derive(move || choices.with(|c| c.missions.clone()))
                    workspaces=Signal::derive(move || choices.with(|c| c.workspaces.clone()))
                />
                {move || {
                    narrowed
                        .get()
                        .then(|| {
                            view! {
                                <a
                                    href="/activity"
                                    class="button button--ghost"
                                    data-testid="activity-clear"
                                >
                                    "Clear filters"
                                </a>
                            }
                        })
                }}
            </div>
            <NewActivityTask shown choices refresh />
            <Polled read=read.first loading="Loading activity…" let:_page>
                <ActivityList read grouping choices narrowed />
            </Polled>
        </section>
    }
}
