//! The missions of the list, grouped by what each needs, with the list's tools above.

use super::list_tools::ListTools;
use super::list_view::{ListView, Sort};
use super::mission_card::MissionCard;
use super::workspace_filter::WorkspaceFilter;
use crate::components::shared::empty_state::EmptyState;
use buildd_core::client::{ClientMission, ClientMissionList};
use buildd_core::grouping::{mission_group, MissionGroup};
use buildd_core::{compute_progress, WorkspaceRef};
use leptos::prelude::*;
use std::collections::BTreeMap;

fn group_of(item: &ClientMission) -> MissionGroup {
    let progress = compute_progress(&item.status, &item.tasks);
    mission_group(item, &item.tasks, &progress, item.next_run_at.as_deref())
}

#[component]
pub fn MissionGroups(
    list: ClientMissionList,
    shown: ListView,
    creating: RwSignal<bool>,
) -> impl IntoView {
    let workspaces: BTreeMap<String, WorkspaceRef> = list
        .missions
        .iter()
        .filter_map(|m| m.workspace.clone())
        .map(|w| (w.name.clone(), w))
        .collect();
    let total = list.missions.len();
    let mut missions: Vec<(ClientMission, u32)> = list
        .missions
        .into_iter()
        .filter(|m| shown.shows(m))
        .map(|m| {
            let progress = compute_progress(&m.status, &m.tasks).progress;
            (m, progress)
        })
        .collect();
    match shown.sort {
        Sort::Activity => {
            missions.sort_by(|(a, _), (b, _)| b.last_activity_at.cmp(&a.last_activity_at))
        }
        Sort::Progress => missions.sort_by(|(a, pa), (b, pb)| {
            pb.cmp(pa).then(b.last_activity_at.cmp(&a.last_activity_at))
        }),
        Sort::Title => missions.sort_by_key(|(m, _)| m.title.to_lowercase()),
    }
    let mut groups: BTreeMap<MissionGroup, Vec<ClientMission>> = BTreeMap::new();
    for (item, _) in missions {
        groups.entry(group_of(&item)).or_default().push(item);
    }
    let active = groups
        .iter()
        .filter(|(g, _)| !matches!(g, MissionGroup::Paused | MissionGroup::Completed))
        .map(|(_, v)| v.len())
        .sum::<usize>();

    let body = if total == 0 {
        view! {
            <EmptyState
                title="No missions yet."
                detail="Create one with New mission: a goal your agents plan and work toward."
            />
        }
        .into_any()
    } else if groups.is_empty() {
        view! {
            <EmptyState title="No missions in this view." detail="Search for other words or choose another workspace." />
        }
        .into_any()
    } else {
        groups
            .into_iter()
            .map(|(group, items)| {
                view! {
                    <section class="group" data-testid=format!("group-{}", group.slug())>
                        <h2 class="group__title">
                            {group.label()} <span class="group__count">{items.len()}</span>
                        </h2>
                        <div class="mission-rows">
                            {items
                                .into_iter()
                                .map(|item| view! { <MissionCard item=item /> })
                                .collect_view()}
                        </div>
                    </section>
                }
            })
            .collect_view()
            .into_any()
    };

    view! {
        <header class="page__head">
            <div>
                <h1>"Missions"</h1>
                <p class="muted" data-testid="active-count">{format!("{active} active")}</p>
            </div>
            <div class="page__tools">
                <ListTools shown=shown.clone() />
                <WorkspaceFilter workspaces=workspaces.into_values().collect() shown=shown />
                <button class="button button--primary" data-testid="open-new-mission"
                    prop:disabled=move || creating.get()
                    on:click=move |_| creating.set(true)>
                    "New mission"
                </button>
            </div>
        </header>
        {body}
    }
}
