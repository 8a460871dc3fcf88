//! The mission list, grouped by what each mission needs, one dense row a mission; its
//! workspace filter, search and sort live in the URL (`?workspace=<id>&q=<words>&sort=`
//! `activity`, `progress` or `title`), so a reload or a shared link shows the same list.

use crate::api;
use crate::components::mission::list_view::ListView;
use crate::components::mission::mission_groups::MissionGroups;
use crate::components::mission::new_mission::{MissionDraft, NewMission};
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::state::connection::use_connection;
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn MissionsPage() -> impl IntoView {
    page_title(|| Some("Missions".into()));
    let query = use_query_map();
    let view_of = Memo::new(move |_| query.with(ListView::from_query));
    let connection = use_connection();
    let (missions, retry) =
        polled(move || with_connection(&connection, |c| async move { api::missions(&c).await }));
    super::first_screen_once(missions);
    // Above the refreshed list, so a refresh never loses what is typed.
    let creating = RwSignal::new(false);
    let draft = RwSignal::new(MissionDraft::default());
    let close = Callback::new(move |()| creating.set(false));
    view! {
        <section class="page">
            {move || creating.get().then(|| view! { <NewMission draft=draft on_cancel=close /> })}
            {move || {
                let shown = view_of.get();
                match missions.get() {
                    None => view! { <Loading label="Loading missions…" /> }.into_any(),
                    Some(Ok(list)) => view! { <MissionGroups list=list shown=shown creating=creating /> }.into_any(),
                    Some(Err(e)) => view! {
                        <h1>"Missions"</h1>
                        <ErrorPanel error=e on_retry=retry />
                    }
                        .into_any(),
                }
            }}
        </section>
    }
}
