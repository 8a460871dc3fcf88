//! The mission list, grouped by what each mission needs, one dense row a mission; its
//! workspace filter, search and sort live in the URL (`?workspace=<id>&q=<words>&sort=`
//! `activity`, `progress` or `title`), so a reload or a shared link shows the same list.

use super::polled_api;
use crate::api;
use crate::components::missions::list_view::ListView;
use crate::components::missions::mission_groups::MissionGroups;
use crate::components::missions::new_mission::NewMission;
use crate::components::shared::polled::Polled;
use crate::state::title::page_title;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn MissionsPage() -> impl IntoView {
    page_title(|| Some("Missions".into()));
    let query = use_query_map();
    let shown = Memo::new(move |_| query.with(ListView::from_query));
    let missions = polled_api(|c| async move { api::missions(&c).await });
    super::first_screen_once(missions);
    let creating = RwSignal::new(false);
    view! {
        <section class="page">
            {move || {
                creating
                    .get()
                    .then(|| view! { <NewMission on_cancel=move |()| creating.set(false) /> })
            }} <Polled read=missions loading="Loading missions…" let:list>
                <MissionGroups list shown creating />
            </Polled>
        </section>
    }
}
