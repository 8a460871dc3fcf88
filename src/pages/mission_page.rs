//! One mission: what it is, how far its deliverables are, and every task by state.

use super::{polled_by_id, route_id, RequireConnection};
use crate::api;
use crate::components::close_mission::{CloseMission, CloseState};
use crate::components::feed::{Feed, FeedState};
use crate::components::markdown::Markdown;
use crate::components::merge_policy_editor::{MergePolicyEditor, PolicyState};
use crate::components::mission_status::MissionStatusCard;
use crate::components::new_task::{NewTask, NewTaskState};
use crate::components::organizer::{OrganizerSection, OrganizerState, RunsTimeline};
use crate::components::panel::{EmptyState, ErrorPanel, Loading};
use crate::components::pr_list::{MergeState, PrList};
use crate::components::progress_card::ProgressCard;
use crate::components::state_chip::{HealthChip, StateChip};
use crate::components::task_row::TaskRow;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use crate::state::workspace_row::workspace_row;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::dependencies::{waiting_on, Blocker};
use buildd_core::grouping::{health, health_beside, mission_state};
use buildd_core::organizer_runs::run_numbers;
use buildd_core::plan::plan_in_review;
use buildd_core::task_groups::{group_tasks, TaskGroup};
use buildd_core::task_prs::prs_of_tasks;
use buildd_core::MissionStatus;
use buildd_core::{compute_progress, MissionTask};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

#[component]
pub fn MissionPage() -> impl IntoView {
    view! { <RequireConnection><MissionLoader /></RequireConnection> }
}

#[component]
fn MissionLoader() -> impl IntoView {
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
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <A href="/missions">"Missions"</A>
            </nav>
            {move || match mission.get() {
                None => view! { <Loading label="Loading the mission…" /> }.into_any(),
                Some(Ok(detail)) => view! {
                    <MissionView detail=detail.clone() />
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

#[component]
fn MissionView(detail: ClientMission) -> impl IntoView {
    let progress = compute_progress(&detail.status, &detail.tasks);
    let state = mission_state(&detail, &detail.tasks, &progress);
    let health = health_beside(state, health(&detail, &progress));
    let status = detail.status.clone();
    let workspace = detail.workspace.clone().map(|w| w.name);
    let plan = plan_in_review(&detail.tasks).map(|t| (t.id.clone(), t.title.clone()));
    view! {
        <header class="mission-head">
            <h1 data-testid="mission-title">{detail.title.clone()}</h1>
            <div class="chips">
                <StateChip state=state />
                {health.map(|h| view! { <HealthChip health=h /> })}
                // The stored status, when the state chip does not already say it (every
                // state but a finished or paused one implies "active").
                {(detail.status != MissionStatus::Active
                    && !state.label().eq_ignore_ascii_case(&detail.status.as_str().replace('_', " ")))
                .then(|| view! {
                    <span class="chip chip--outline chip--muted" data-testid="mission-status">
                        {format!("status: {}", detail.status)}
                    </span>
                })}
                {workspace.map(|w| view! { <span class="muted small">{format!("workspace {w}")}</span> })}
            </div>
            {detail
                .description
                .clone()
                .map(|d| view! { <div class="mission-head__description" data-testid="mission-description"><Markdown source=d /></div> })}
            {detail
                .blocked_reason
                .clone()
                .map(|r| view! { <p class="notice notice--warn">{r}</p> })}
        </header>
        {plan.map(|(id, title)| view! {
            <section class="card plan-waiting" data-testid="plan-awaiting-review">
                <h2 class="card__title">"Plan awaiting review"</h2>
                <p>
                    {format!("{title} finished planning. Its steps start once a person approves the plan; sending it back asks for a revision.")}
                </p>
                <a class="button button--primary" href=format!("/tasks/{id}")>"Review the plan"</a>
            </section>
        })}
        <ProgressCard progress=progress status=status />
    }
}

/// Rows shown per section until a person asks for all of them.
const SECTION_LIMIT: usize = 50;

#[component]
fn TaskSections(tasks: Vec<MissionTask>, expanded: RwSignal<HashSet<TaskGroup>>) -> impl IntoView {
    if tasks.is_empty() {
        return view! {
            <EmptyState
                title="No tasks yet."
                detail="The organizer files tasks once a plan is approved."
            />
        }
        .into_any();
    }
    let titles: Arc<HashMap<String, String>> = Arc::new(
        tasks
            .iter()
            .map(|t| (t.id.clone(), t.title.clone()))
            .collect(),
    );
    let by_id: HashMap<&str, &MissionTask> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let waiting: Arc<HashMap<String, Vec<String>>> = Arc::new(
        tasks
            .iter()
            .filter_map(|t| {
                let blockers = waiting_on(t, |id| by_id.get(id).copied());
                (!blockers.is_empty())
                    .then(|| (t.id.clone(), blockers.iter().map(Blocker::label).collect()))
            })
            .collect(),
    );
    let runs: Arc<HashMap<String, usize>> = Arc::new(run_numbers(&tasks));
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
                    let count = items.len();
                    let titles = titles.clone();
                    let waiting = waiting.clone();
                    let runs = runs.clone();
                    let rows = move || {
                        let all = expanded.with(|e| e.contains(&group));
                        let shown = if all { count } else { count.min(SECTION_LIMIT) };
                        items[..shown]
                            .iter()
                            .map(|t| {
                                let waiting_on = waiting.get(&t.id).cloned().unwrap_or_default();
                                let run_number = runs.get(&t.id).copied();
                                view! { <TaskRow task=t.clone() titles=titles.clone() waiting_on=waiting_on run_number=run_number /> }
                            })
                            .collect_view()
                    };
                    let more = move || {
                        (count > SECTION_LIMIT && !expanded.with(|e| e.contains(&group)))
                            .then(|| {
                                view! {
                                    <button
                                        class="button button--ghost show-all"
                                        on:click=move |_| expanded.update(|e| {
                                            e.insert(group);
                                        })
                                    >
                                        {format!("Show all {count}")}
                                    </button>
                                }
                            })
                    };
                    // Finished work folds away under its count; open work is laid out.
                    if matches!(group, TaskGroup::Done | TaskGroup::Cancelled) {
                        return view! {
                            <details class="task-group task-group--finished" data-testid=format!("tasks-{}", group.slug())>
                                <summary class="task-group__title">
                                    {group.label()} <span class="group__count">{count}</span>
                                </summary>
                                <ul class="task-list">{rows}</ul>
                                {more}
                            </details>
                        }
                        .into_any();
                    }
                    view! {
                        <section class="task-group" data-testid=format!("tasks-{}", group.slug())>
                            <h3 class="task-group__title">
                                {group.label()} <span class="group__count">{count}</span>
                            </h3>
                            <ul class="task-list">{rows}</ul>
                            {more}
                        </section>
                    }
                    .into_any()
                })
                .collect_view()}
        </section>
    }
    .into_any()
}
