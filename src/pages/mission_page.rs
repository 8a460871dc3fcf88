//! One mission: what it is, how far its deliverables are, and every task by state.

use super::RequireConnection;
use crate::api;
use crate::components::panel::{EmptyState, ErrorPanel, Loading};
use crate::components::progress_card::ProgressCard;
use crate::components::state_chip::{HealthChip, StateChip};
use crate::components::task_row::TaskRow;
use crate::state::connection::Connection;
use crate::state::refresh::refresh_while_visible;
use buildd_core::grouping::{health, mission_state};
use buildd_core::task_groups::{group_tasks, TaskGroup};
use buildd_core::{compute_progress, MissionDetail, MissionTask};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use std::collections::{BTreeMap, HashMap};

#[component]
pub fn MissionPage() -> impl IntoView {
    view! { <RequireConnection children=|c| view! { <MissionLoader connection=c /> } /> }
}

#[component]
fn MissionLoader(connection: Connection) -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id")).unwrap_or_default());
    let mission = LocalResource::new(move || {
        let c = connection.clone();
        let id = id.get();
        async move { api::mission(&c, &id).await }
    });
    refresh_while_visible(move || mission.refetch());
    let retry = Callback::new(move |_| mission.refetch());
    view! {
        <section class="page">
            <nav class="breadcrumbs">
                <A href="/">"Missions"</A>
            </nav>
            <Transition fallback=|| view! { <Loading label="Loading the mission…" /> }>
                {move || Suspend::new(async move {
                    match mission.await {
                        Ok(detail) => view! { <MissionView detail=detail /> }.into_any(),
                        Err(e) => view! { <ErrorPanel error=e on_retry=retry /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn MissionView(detail: MissionDetail) -> impl IntoView {
    let progress = compute_progress(&detail.mission.status, &detail.tasks);
    let state = mission_state(&detail.mission, &detail.tasks, &progress);
    let health = health(&detail.mission, &progress);
    let status = detail.mission.status.clone();
    let workspace = detail.workspace.clone().map(|w| w.name);
    view! {
        <header class="mission-head">
            <h1 data-testid="mission-title">{detail.mission.title.clone()}</h1>
            <div class="chips">
                <StateChip state=state />
                <HealthChip health=health />
                <span class="chip chip--outline chip--muted" data-testid="mission-status">
                    {format!("status: {}", detail.mission.status)}
                </span>
                {workspace.map(|w| view! { <span class="muted small">{format!("workspace {w}")}</span> })}
            </div>
            {detail
                .mission
                .description
                .clone()
                .map(|d| view! { <p class="mission-head__description" data-testid="mission-description">{d}</p> })}
            {detail
                .blocked_reason
                .clone()
                .map(|r| view! { <p class="notice notice--warn">{r}</p> })}
        </header>
        <ProgressCard progress=progress status=status />
        <TaskSections tasks=detail.tasks />
    }
}

#[component]
fn TaskSections(tasks: Vec<MissionTask>) -> impl IntoView {
    if tasks.is_empty() {
        return view! {
            <EmptyState
                title="No tasks yet."
                detail="The organizer files tasks once a plan is approved."
            />
        }
        .into_any();
    }
    let titles: HashMap<String, String> = tasks
        .iter()
        .map(|t| (t.id.clone(), t.title.clone()))
        .collect();
    let mut groups: BTreeMap<TaskGroup, Vec<MissionTask>> = BTreeMap::new();
    for (group, task) in group_tasks(&tasks) {
        groups.entry(group).or_default().push(task.clone());
    }
    view! {
        <section class="tasks" data-testid="task-list">
            <h2>{format!("Tasks ({})", tasks.len())}</h2>
            {groups
                .into_iter()
                .map(|(group, items)| {
                    let titles = titles.clone();
                    view! {
                        <section class="task-group" data-testid=format!("tasks-{}", group.slug())>
                            <h3 class="task-group__title">
                                {group.label()} <span class="group__count">{items.len()}</span>
                            </h3>
                            <ul class="task-list">
                                {items
                                    .into_iter()
                                    .map(|t| view! { <TaskRow task=t titles=titles.clone() /> })
                                    .collect_view()}
                            </ul>
                        </section>
                    }
                })
                .collect_view()}
        </section>
    }
    .into_any()
}
