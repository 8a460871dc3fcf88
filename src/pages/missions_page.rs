//! The mission list, grouped by what each mission needs, with a workspace filter kept in
//! the URL (`?workspace=<id>`).

use super::RequireConnection;
use crate::api;
use crate::components::mission_card::MissionCard;
use crate::components::new_mission::{MissionDraft, NewMission};
use crate::components::panel::{EmptyState, ErrorPanel, Loading};
use crate::state::connection::use_connection;
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use buildd_core::client::{ClientMission, ClientMissionList};
use buildd_core::grouping::{mission_group, MissionGroup};
use buildd_core::{compute_progress, WorkspaceRef};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use std::collections::BTreeMap;

#[component]
pub fn MissionsPage() -> impl IntoView {
    page_title(|| Some("Missions".into()));
    view! { <RequireConnection><MissionList /></RequireConnection> }
}

#[component]
fn MissionList() -> impl IntoView {
    let query = use_query_map();
    let workspace = Memo::new(move |_| query.with(|q| q.get("workspace")));
    let connection = use_connection();
    let (missions, retry) =
        polled(move || with_connection(&connection, |c| async move { api::missions(&c).await }));
    // Above the refreshed list, so a refresh never loses what is typed.
    let creating = RwSignal::new(false);
    let draft = RwSignal::new(MissionDraft::default());
    let close = Callback::new(move |()| creating.set(false));
    view! {
        <section class="page">
            {move || creating.get().then(|| view! { <NewMission draft=draft on_cancel=close /> })}
            {move || {
                let selected = workspace.get();
                match missions.get() {
                    None => view! { <Loading label="Loading missions…" /> }.into_any(),
                    Some(Ok(list)) => view! { <Missions list=list selected=selected creating=creating /> }.into_any(),
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

fn group_of(item: &ClientMission) -> MissionGroup {
    let progress = compute_progress(&item.status, &item.tasks);
    mission_group(item, &item.tasks, &progress, item.next_run_at.as_deref())
}

#[component]
fn Missions(
    list: ClientMissionList,
    selected: Option<String>,
    creating: RwSignal<bool>,
) -> impl IntoView {
    let workspaces: BTreeMap<String, WorkspaceRef> = list
        .missions
        .iter()
        .filter_map(|m| m.workspace.clone())
        .map(|w| (w.name.clone(), w))
        .collect();
    let total = list.missions.len();
    let mut shown: Vec<ClientMission> = list
        .missions
        .into_iter()
        .filter(|m| match &selected {
            Some(ws) => m.workspace_id.as_deref() == Some(ws.as_str()),
            None => true,
        })
        .collect();
    shown.sort_by(|a, b| b.last_activity_at.cmp(&a.last_activity_at));
    let mut groups: BTreeMap<MissionGroup, Vec<ClientMission>> = BTreeMap::new();
    for item in shown {
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
            <EmptyState title="No missions in this view." detail="Choose another workspace." />
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
                        <div class="grid">
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
                <WorkspaceFilter workspaces=workspaces.into_values().collect() selected=selected />
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

#[component]
fn WorkspaceFilter(workspaces: Vec<WorkspaceRef>, selected: Option<String>) -> impl IntoView {
    let navigate = use_navigate();
    let on_change = move |ev| {
        let value = event_target_value(&ev);
        let url = if value.is_empty() {
            "/missions".to_string()
        } else {
            format!(
                "/missions?workspace={}",
                String::from(js_sys::encode_uri_component(&value))
            )
        };
        navigate(&url, Default::default());
    };
    let options = workspaces
        .into_iter()
        .map(|w| {
            let is_selected = selected.as_deref() == Some(w.id.as_str());
            view! {
                <option value=w.id.clone() selected=is_selected>
                    {w.name}
                </option>
            }
        })
        .collect_view();
    view! {
        <label class="field field--inline">
            <span class="field__label">"Workspace"</span>
            <select on:change=on_change data-testid="workspace-filter">
                <option value="" selected=selected.is_none()>
                    "All workspaces"
                </option>
                {options}
            </select>
        </label>
    }
}
