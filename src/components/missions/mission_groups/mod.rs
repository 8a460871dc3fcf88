//! The missions of the list, grouped by what each needs, with the list's tools above. Each
//! group and each card is keyed, so a refresh moves and updates them in place.

pub mod group_section;
pub mod grouped;

use self::group_section::GroupSection;
use self::grouped::grouped;
use crate::components::missions::list_tools::ListTools;
use crate::components::missions::list_view::ListView;
use crate::components::missions::workspace_filter::WorkspaceFilter;
use crate::components::shared::empty_state::EmptyState;
use buildd_core::client::ClientMissionList;
use buildd_core::grouping::MissionGroup;
use buildd_core::WorkspaceRef;
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

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
    let group = move |group: MissionGroup| view! { <GroupSection group list groups /> };
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
