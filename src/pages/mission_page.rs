//! One mission: what it is, how far its deliverables are, what it spent of its budget, and
//! every task by state; its feed; and how it plans and merges. The tab is in the address.

use super::{for_route_id, polled_by_id};
use crate::api;
use crate::components::mission::budget_card::BudgetCard;
use crate::components::mission::close_mission::CloseMission;
use crate::components::mission::feed::Feed;
use crate::components::mission::merge_policy_editor::MergePolicyEditor;
use crate::components::mission::mission_head::MissionHead;
use crate::components::mission::mission_status_card::MissionStatusCard;
use crate::components::mission::organizer::runs_timeline::RunsTimeline;
use crate::components::mission::organizer::OrganizerSection;
use crate::components::mission::pictures::{pictures_view, prefetch_pictures};
use crate::components::mission::pr_list::PrList;
use crate::components::mission::task_sections::TaskSections;
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::components::shared::new_task::NewTask;
use crate::components::shared::polled::Polled;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::first_screen::use_first_screen;
use crate::state::reconciled::reconcile_on_open;
use crate::state::refresh::PolledRead;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use crate::state::workspace_row::workspace_row;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::note::NotesPage;
use buildd_core::organizer_runs::MissionRuns;
use buildd_core::pull_request::PullRequestList;
use buildd_core::task_prs::{prs_of_tasks, TaskPr};
use buildd_core::{MissionTask, Workspace};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use send_wrapper::SendWrapper;
use std::sync::Arc;

/// The tabs: (name in the address, label).
const TABS: [(&str, &str); 4] = [
    ("overview", "Overview"),
    ("pictures", "Pictures"),
    ("feed", "Feed"),
    ("settings", "Organizer & merging"),
];

/// What the page reads, apart from the mission, and what it does with it.
#[derive(Clone, Copy)]
struct Reads {
    notes: PolledRead<NotesPage>,
    runs: PolledRead<Option<MissionRuns>>,
    prs: PolledRead<Option<PullRequestList>>,
    /// The workspace row whose default policy the mission inherits, where the API does not
    /// resolve it.
    workspace: LocalResource<Option<Workspace>>,
    refresh: Callback<()>,
    after_note: Callback<()>,
    after_merge: Callback<()>,
    tab: RwSignal<&'static str>,
    select: Callback<&'static str>,
}

/// What a tab's panel is made of.
#[derive(Clone)]
struct Panel {
    mission_id: String,
    /// The mission without its tasks, with the workspace's policy it inherits.
    settings: Memo<ClientMission>,
    tasks: Memo<Vec<MissionTask>>,
    task_prs: Memo<Vec<TaskPr>>,
    reads: Reads,
}

fn feed_tab(p: Panel) -> AnyView {
    let Reads {
        notes, after_note, ..
    } = p.reads;
    view! { <Feed notes mission_id=p.mission_id refresh=after_note /> }.into_any()
}

fn overview_tab(p: Panel) -> AnyView {
    let Reads {
        prs,
        refresh,
        after_merge,
        ..
    } = p.reads;
    let workspace_id = Signal::derive(move || p.settings.with(|m| m.workspace_id.clone()));
    let policy = Signal::derive(move || p.settings.with(|m| m.effective_policy()));
    view! {
        <NewTask mission_id=Some(p.mission_id) workspace_id refresh />
        <TaskSections tasks=p.tasks refresh />
        <PrList prs from_tasks=p.task_prs policy workspace_id refresh=after_merge />
    }
    .into_any()
}

/// The pictures, whose code (a chunk of its own in the split build) is fetched on the
/// tab's first visit; a chunk that does not load is said, with a reload.
fn pictures_tab(p: Panel) -> AnyView {
    let (tasks, settings, runs) = (p.tasks, p.settings, p.reads.runs);
    let reload = Callback::new(|()| {
        let _ = window().location().reload();
    });
    view! {
        <Suspense fallback=|| {
            view! { <Loading label="Loading the pictures…" /> }
        }>
            {move || Suspend::new(
                SendWrapper::new(async move {
                    pictures_view(tasks, settings, runs)
                        .await
                        .unwrap_or_else(|error| {
                            view! { <ErrorPanel error on_retry=reload /> }.into_any()
                        })
                }),
            )}
        </Suspense>
    }
    .into_any()
}

fn settings_tab(p: Panel) -> AnyView {
    let (mission, refresh, runs) = (p.settings, p.reads.refresh, p.reads.runs);
    view! {
        <OrganizerSection mission refresh />
        <RunsTimeline runs />
        <MergePolicyEditor mission refresh />
        <MissionStatusCard mission refresh />
    }
    .into_any()
}

/// The mission once read: its head, completion and tabs.
fn mission_detail(detail: Memo<Arc<ClientMission>>, reads: Reads) -> impl IntoView {
    // How the mission is set up, apart from its tasks: the settings tab does not change
    // while only its work moves.
    let settings = Memo::new(move |_| {
        let mut shown = detail.with(|m| m.without_tasks());
        if let Some(Some(ws)) = reads.workspace.get() {
            shown.inherit_from(&ws);
        }
        shown
    });
    let tasks = Memo::new(move |_| detail.with(|m| m.tasks.clone()));
    let task_prs = Memo::new(move |_| tasks.with(|t| prs_of_tasks(t)));
    let parts = Panel {
        mission_id: detail.with_untracked(|m| m.id.clone()),
        settings,
        tasks,
        task_prs,
        reads,
    };
    let Reads {
        refresh,
        tab,
        select,
        ..
    } = reads;
    // A tab's panel is made on its first visit and kept, hidden while another shows, so
    // what was typed in it stays.
    let panel = move |name: &'static str, content: fn(Panel) -> AnyView| {
        let opened = Memo::new(move |was: Option<&bool>| was == Some(&true) || tab.get() == name);
        let parts = parts.clone();
        move || {
            opened.get().then(|| {
                view! {
                    <div
                        role="tabpanel"
                        id=format!("panel-{name}")
                        aria-labelledby=format!("tab-{name}")
                        hidden=move || tab.get() != name
                    >
                        {content(parts.clone())}
                    </div>
                }
            })
        }
    };
    let tabs = TABS
        .iter()
        .map(|&(name, label)| {
            view! {
                <button
                    role="tab"
                    id=format!("tab-{name}")
                    aria-controls=format!("panel-{name}")
                    data-testid=format!("tab-{name}")
                    aria-selected=move || (tab.get() == name).to_string()
                    on:click=move |_| select.run(name)
                >
                    {label}
                </button>
            }
        })
        .collect_view();
    view! {
        <MissionHead mission=detail refresh />
        <CloseMission mission=detail refresh />
        <BudgetCard mission=detail refresh />
        <div class="tabs" role="tablist">
            {tabs}
        </div>
        {panel("feed", feed_tab)}
        // The work comes first — open tasks, then the PRs — and how the mission is set up has
        // its own tab.
        {panel("overview", overview_tab)}
        {panel("pictures", pictures_tab)}
        {panel("settings", settings_tab)}
    }
}

/// Fetches the pictures' code once the page is shown and has had a second to itself, so
/// the Pictures tab draws at once when opened; a page left before then fetches nothing.
fn prefetch_pictures_when_settled() {
    let open = StoredValue::new(());
    let first = use_first_screen();
    leptos::task::spawn_local(async move {
        first.shown().await;
        gloo_timers::future::TimeoutFuture::new(1_000).await;
        if open.try_get_value().is_some() {
            prefetch_pictures().await;
        }
    });
}

#[component]
pub fn MissionPage() -> impl IntoView {
    for_route_id(mission_page)
}

fn mission_page(id: String) -> impl IntoView {
    let mission = polled_by_id(&id, |c, id| async move { api::mission(&c, &id).await });
    super::first_screen_once(mission);
    prefetch_pictures_when_settled();
    page_title(move || mission.with_data(|m| m.title.clone()));
    // The runs timeline and the PR list are this server's additions: asked only where offered.
    let offered = use_capabilities();
    let runs = polled_by_id(&id, move |c, id| {
        offered.read_by_id(Extra::OrganizerRuns, async move {
            api::mission_runs(&c, &id).await
        })
    });
    let prs = polled_by_id(&id, move |c, id| {
        offered.read(Extra::PullRequests, async move {
            api::mission_prs(&c, &id).await
        })
    });
    let notes = polled_by_id(
        &id,
        |c, id| async move { api::mission_notes(&c, &id).await },
    );
    let refresh = mission.reload;
    // A note may plan the mission: both refresh.
    let after_note = Callback::new(move |_| {
        notes.reload.run(());
        refresh.run(());
    });
    // A merge changes the PRs and the mission alike.
    let after_merge = Callback::new(move |_| {
        prs.reload.run(());
        refresh.run(());
    });
    let query = use_query_map();
    let tab = RwSignal::new(
        TABS.iter()
            .map(|(name, _)| *name)
            .find(|name| query.with_untracked(|q| q.get("tab")).as_deref() == Some(*name))
            .unwrap_or("overview"),
    );
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
        let options = NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        };
        navigate(&format!("{path}{query}"), options);
    });
    // Where the mission detail does not resolve the merge policy (Buildd's), the workspace
    // row supplies the default it inherits; read once per workspace, not polled.
    let connection = use_connection();
    let workspace_id = Memo::new(move |_| {
        mission
            .with_data(|m| m.workspace_id.clone())
            .flatten()
            .filter(|_| !offered.has(Extra::EffectiveMergePolicy))
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
    // Buildd keeps PR state from webhooks (this server has the PRs themselves): a missed
    // one is caught up when the page opens.
    let reconcile_id = id.clone();
    Effect::new(move |asked: Option<bool>| {
        if asked == Some(true) || !offered.known() {
            return asked.unwrap_or(false);
        }
        if !offered.has(Extra::PullRequests) {
            reconcile_on_open(connection, reconcile_id.clone(), refresh);
        }
        true
    });
    let reads = Reads {
        notes,
        runs,
        prs,
        workspace,
        refresh,
        after_note,
        after_merge,
        tab,
        select,
    };
    view! {
        <section class="page">
            <nav class="breadcrumbs" aria-label="Breadcrumb">
                <A href="/missions">"Missions"</A>
            </nav>
            <Polled read=mission loading="Loading the mission…" let:detail>
                {mission_detail(detail, reads)}
            </Polled>
        </section>
    }
}
