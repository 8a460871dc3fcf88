//! The missions of the list, grouped by what each needs, with the list's tools above. Each
//! group and each card is keyed, so a refresh moves and updates them in place.

use super::list_tools::ListTools;
use super::list_view::{ListView, Sort};
use super::mission_card::MissionCard;
use super::workspace_filter::WorkspaceFilter;
use crate::components::shared::empty_state::EmptyState;
use crate::state::rows::row_memo;
use buildd_core::client::{ClientMission, ClientMissionList};
use buildd_core::grouping::{mission_group, MissionGroup};
use buildd_core::{compute_progress, WorkspaceRef};
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

fn group_of(item: &ClientMission) -> MissionGroup {
    let progress = compute_progress(&item.status, &item.tasks);
    mission_group(item, &item.tasks, &progress, item.next_run_at.as_deref())
}

/// The ids of the missions `shown` takes, sorted as it says, by group.
fn grouped(list: &ClientMissionList, shown: &ListView) -> Vec<(MissionGroup, Vec<String>)> {
    let mut missions: Vec<(&ClientMission, u32)> = list
        .missions
        .iter()
        .filter(|m| shown.shows(m))
        .map(|m| (m, compute_progress(&m.status, &m.tasks).progress))
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
    let mut groups: BTreeMap<MissionGroup, Vec<String>> = BTreeMap::new();
    for (item, _) in missions {
        groups
            .entry(group_of(item))
            .or_default()
            .push(item.id.clone());
    }
    groups.into_iter().collect()
}

const NO_MISSIONS: &str = "Create one with New mission: a goal your agents plan and work toward.";

/// What the list says where it shows no group.
#[derive(Clone, Copy, PartialEq)]
enum Body {
    NoMissions,
    NoneInView,
    Groups,
}

#[component]
pub fn MissionGroups(
    list: Memo<Arc<ClientMissionList>>,
    shown: Memo<ListView>,
    creating: RwSignal<bool>,
) -> impl IntoView {
    let workspaces = Memo::new(move |_| {
        list.with(|l| {
            l.missions
                .iter()
                .filter_map(|m| m.workspace.clone())
                .map(|w| (w.name.clone(), w))
                .collect::<BTreeMap<String, WorkspaceRef>>()
                .into_values()
                .collect::<Vec<_>>()
        })
    });
    let groups = Memo::new(move |_| list.with(|l| shown.with(|s| grouped(l, s))));
    let active = Memo::new(move |_| {
        groups.with(|g| {
            g.iter()
                .filter(|(g, _)| !matches!(g, MissionGroup::Paused | MissionGroup::Completed))
                .map(|(_, v)| v.len())
                .sum::<usize>()
        })
    });
    let body = Memo::new(move |_| {
        if list.with(|l| l.missions.is_empty()) {
            Body::NoMissions
        } else if groups.with(Vec::is_empty) {
            Body::NoneInView
        } else {
            Body::Groups
        }
    });
    let mission = move |id: String| {
        row_memo(move || list.with(|l| l.missions.iter().find(|m| m.id == id).cloned()))
    };
    let group = move |group: MissionGroup| {
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
    };
    view! {
        <header class="page__head">
            <div>
                <h1>"Missions"</h1>
                <p class="muted" data-testid="active-count">
                    {move || format!("{} active", active.get())}
                </p>
            </div>
            <div class="page__tools">
                <ListTools shown />
                <WorkspaceFilter workspaces shown />
                <button
                    class="button button--primary"
                    data-testid="open-new-mission"
                    prop:disabled=creating
                    on:click=move |_| creating.set(true)
                >
                    "New mission"
                </button>
            </div>
        </header>
        {move || match body.get() {
            Body::NoMissions => {
                view! { <EmptyState title="No missions yet." detail=NO_MISSIONS /> }.into_any()
            }
            Body::NoneInView => {
                view! {
                    <EmptyState
                        title="No missions in this view."
                        detail="Search for other words or choose another workspace."
                    />
                }
                    .into_any()
            }
            Body::Groups => {
                view! {
                    <For
                        each=move || groups.with(|g| g.iter().map(|(g, _)| *g).collect::<Vec<_>>())
                        key=|g| g.slug()
                        children=group
                    />
                }
                    .into_any()
            }
        }}
    }
}
