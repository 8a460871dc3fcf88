//! One mission: what it is, how far its deliverables are, and every task by state.

use super::{polled_by_id, route_id};
use crate::api;
use crate::components::mission::close_mission::{CloseMission, CloseState};
use crate::components::mission::feed::{Feed, FeedState};
use crate::components::mission::merge_policy_editor::MergePolicyEditor;
use crate::components::mission::mission_head::MissionHead;
use crate::components::mission::mission_status_card::MissionStatusCard;
use crate::components::mission::new_task::{NewTask, NewTaskState};
use crate::components::mission::organizer::runs_timeline::RunsTimeline;
use crate::components::mission::organizer::{OrganizerSection, OrganizerState};
use crate::components::mission::pr_list::{MergeState, PrList};
use crate::components::mission::task_sections::TaskSections;
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::components::shared::policy_form::PolicyState;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use crate::state::workspace_row::workspace_row;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::task_groups::TaskGroup;
use buildd_core::task_prs::prs_of_tasks;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use std::collections::HashSet;

#[component]
pub fn MissionPage() -> impl IntoView {
    let id = route_id();
    let (mission, retry) = polled_by_id(id, |c, id| async move { api::mission(&c, &id).await });
    super::first_screen_once(mission);
    page_title(move || {
        mission.with(|m| match m {
            Some(Ok(m)) => Some(m.title.clone()),
            _ => None,
        })
    });
    // The runs timeline and the PR list are this server's additions: asked only where offered.
    let offered = use_capabilities();
    let (runs, _) = polled_by_id(id, move |c, id| {
        offered.read_by_id(Extra::OrganizerRuns, async move {
            api::mission_runs(&c, &id).await
        })
    });
    let (prs, retry_prs) = polled_by_id(id, move |c, id| {
        offered.read(Extra::PullRequests, async move {
            api::mission_prs(&c, &id).await
        })
    });
    let merge_state = MergeState::default();
    let (notes, retry_notes) =
        polled_by_id(id, |c, id| async move { api::mission_notes(&c, &id).await });
    let feed_state = FeedState::default();
    // A note may plan the mission: both refresh.
    let after_note = Callback::new(move |_| {
        retry_notes.run(());
        retry.run(());
    });
    let query = use_query_map();
    let tab = RwSignal::new(match query.with_untracked(|q| q.get("tab")).as_deref() {
        Some("feed") => "feed",
        Some("settings") => "settings",
        _ => "overview",
    });
    // The tab is in the address, so a reload or a shared link opens the same one.
    let navigate = use_navigate();
    let select = Callback::new(move |name: &'static str| {
        tab.set(name);
        let path = window().location().pathname().unwrap_or_default();
        let query = if name == "overview" {
            String::new()
        } else {
            format!("?tab={name}")
        };
        navigate(
            &format!("{path}{query}"),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        );
    });
    // A merge changes the PRs and the mission alike.
    let after_merge = Callback::new(move |_| {
        retry_prs.run(());
        retry.run(());
    });
    // Outlive each refresh of the data, so an opened section stays open and unsaved text stays.
    let expanded = RwSignal::new(HashSet::<TaskGroup>::new());
    let organizer_state = OrganizerState::default();
    let policy_state = PolicyState::for_mission();
    let close_state = CloseState::default();
    let new_task = NewTaskState::default();
    // The organizer section re-renders only when what it shows changes, so a refresh never
    // disturbs an edit in progress.
    // Where the mission detail does not resolve the merge policy (Buildd's), the workspace
    // row supplies the default it inherits; read once per workspace, not polled.
    let connection = use_connection();
    let workspace_id = Memo::new(move |_| {
        mission.with(|m| match m {
            Some(Ok(m)) if !offered.has(Extra::EffectiveMergePolicy) => m.workspace_id.clone(),
            _ => None,
        })
    });
    let workspace = LocalResource::new(move || {
        let row = workspace_id
            .get()
            .map(|id| with_connection(&connection, move |c| workspace_row(c, offered, id)));
        async move {
            match row {
                Some(row) => row.await.ok(),
                None => None,
            }
        }
    });
    let organizer = Memo::new(move |_| {
        mission.with(|m| match m {
            Some(Ok(m)) => {
                let mut shown = ClientMission {
                    tasks: vec![],
                    ..m.clone()
                };
                if let Some(Some(ws)) = workspace.get() {
                    shown.inherit_from(&ws);
                }
                Some(shown)
            }
            _ => None,
        })
    });
    let shown =
        move |name: &'static str| move || organizer.with(Option::is_some) && tab.get() == name;
    let tasks = Memo::new(move |_| {
        mission.with(|m| match m {
            Some(Ok(m)) => Some(m.tasks.clone()),
            _ => None,
        })
    });
    let task_prs =
        Memo::new(move |_| tasks.with(|t| t.as_deref().map(prs_of_tasks).unwrap_or_default()));
    view! {
        <section class="page">
            <nav class="breadcrumbs">
                <A href="/missions">"Missions"</A>
            </nav>
            {move || match mission.get() {
                None => view! { <Loading label="Loading the mission…" /> }.into_any(),
                Some(Ok(detail)) => view! {
                    <MissionHead detail=detail.clone() />
                    <CloseMission mission=detail state=close_state refresh=retry />
                }
                .into_any(),
                Some(Err(e)) => view! { <ErrorPanel error=e on_retry=retry /> }.into_any(),
            }}
            {move || organizer.with(Option::is_some).then(|| view! {
                <div class="tabs" role="tablist">
                    <button role="tab" data-testid="tab-overview" aria-selected=move || (tab.get() == "overview").to_string()
                        on:click=move |_| select.run("overview")>"Overview"</button>
                    <button role="tab" data-testid="tab-feed" aria-selected=move || (tab.get() == "feed").to_string()
                        on:click=move |_| select.run("feed")>"Feed"</button>
                    <button role="tab" data-testid="tab-settings" aria-selected=move || (tab.get() == "settings").to_string()
                        on:click=move |_| select.run("settings")>"Organizer & merging"</button>
                </div>
            })}
            {move || shown("feed")().then(|| view! {
                <Feed notes=notes mission_id=id.get() state=feed_state refresh=after_note />
            })}
            // The work comes first — open tasks, then the PRs — and how the mission is set up
            // has its own tab.
            {move || organizer.get().filter(|_| tab.get() == "overview").map(|m| view! {
                <NewTask mission_id=m.id.clone() workspace_id=m.workspace_id.clone() state=new_task refresh=retry />
            })}
            {move || tasks.get().filter(|_| tab.get() == "overview").map(|t| view! { <TaskSections tasks=t expanded=expanded /> })}
            {move || shown("overview")().then(|| view! {
                <PrList prs=prs from_tasks=task_prs state=merge_state refresh=after_merge />
            })}
            {move || organizer.get().filter(|_| tab.get() == "settings").map(|m| view! {
                <OrganizerSection mission=m state=organizer_state refresh=retry />
            })}
            {move || shown("settings")().then(|| view! { <RunsTimeline runs=runs /> })}
            {move || organizer.get().filter(|_| tab.get() == "settings").map(|m| view! {
                <MergePolicyEditor mission=m state=policy_state refresh=retry />
            })}
            {move || organizer.get().filter(|_| tab.get() == "settings").map(|m| view! {
                <MissionStatusCard mission=m refresh=retry />
            })}
        </section>
    }
}
