//! `<GroupSection>`: one group of the list, its count and its missions' cards, keyed so a
//! refresh moves and updates them in place.

use crate::components::missions::mission_card::MissionCard;
use crate::state::rows::{positions, row_at};
use buildd_core::client::ClientMissionList;
use buildd_core::grouping::MissionGroup;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn GroupSection(
    group: MissionGroup,
    list: Memo<Arc<ClientMissionList>>,
    /// Each group's mission ids, as shown.
    groups: Memo<Vec<(MissionGroup, Vec<String>)>>,
) -> impl IntoView {
    let at = positions(move || list.with(|l| l.missions.iter().map(|m| m.id.clone()).collect()));
    let mission =
        move |id: String| row_at(at, id, move |i| list.with(|l| l.missions.get(i).cloned()));
    let ids = Memo::new(move |_| {
        groups.with(|g| {
            g.iter()
                .find(|(g, _)| *g == group)
                .map(|(_, ids)| ids.clone())
                .unwrap_or_default()
        })
    });
    view! {
        <section class="group" data-testid=format!("group-{}", group.slug())>
            <h2 class="group__title">
                {group.label()} <span class="group__count">{move || ids.with(Vec::len)}</span>
            </h2>
            <div class="mission-rows">
                <For each=move || ids.get() key=String::clone let:id>
                    <MissionCard mission=mission(id) />
                </For>
            </div>
        </section>
    }
}
