//! The mission list, grouped by what each mission needs, one dense row a mission; its
//! workspace filter, search and sort live in the URL (`?workspace=<id>&q=<words>&sort=`
//! `activity`, `progress` or `title`), so a reload or a shared link shows the same list.

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
    let view_of = Memo::new(move |_| query.with(ListView::from_query));
    let connection = use_connection();
    let (missions, retry) =
        polled(move || with_connection(&connection, |c| async move { api::missions(&c).await }));
    super::first_screen_once(missions);
    // Above the refreshed list, so a refresh never loses what is typed.
    let creating = RwSignal::new(false);
    let draft = RwSignal::new(MissionDraft::default());
    let close = Callback::new(move |()| creating.set(false));
    view! {
        <section class="page">
            {move || creating.get().then(|| view! { <NewMission draft=draft on_cancel=close /> })}
            {move || {
                let shown = view_of.get();
                match missions.get() {
                    None => view! { <Loading label="Loading missions…" /> }.into_any(),
                    Some(Ok(list)) => view! { <Missions list=list shown=shown creating=creating /> }.into_any(),
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

/// What the list shows: the address's filter, search and sort.
#[derive(Clone, Debug, Default, PartialEq)]
struct ListView {
    workspace: Option<String>,
    search: String,
    sort: Sort,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Sort {
    /// Most recently active first.
    #[default]
    Activity,
    /// Furthest along first.
    Progress,
    Title,
}

impl Sort {
    const ALL: [Sort; 3] = [Sort::Activity, Sort::Progress, Sort::Title];

    fn slug(self) -> &'static str {
        match self {
            Sort::Activity => "activity",
            Sort::Progress => "progress",
            Sort::Title => "title",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Sort::Activity => "Last activity",
            Sort::Progress => "Progress",
            Sort::Title => "Title",
        }
    }
}

impl ListView {
    fn from_query(q: &leptos_router::params::ParamsMap) -> Self {
        Self {
            workspace: q.get("workspace").filter(|w| !w.is_empty()),
            search: q.get("q").unwrap_or_default(),
            sort: Sort::ALL
                .into_iter()
                .find(|s| q.get("sort").as_deref() == Some(s.slug()))
                .unwrap_or_default(),
        }
    }

    /// `/missions` with this view in its query; defaults are left out.
    fn href(&self) -> String {
        let encode = |v: &str| String::from(js_sys::encode_uri_component(v));
        let mut parts = Vec::new();
        if let Some(w) = &self.workspace {
            parts.push(format!("workspace={}", encode(w)));
        }
        if !self.search.trim().is_empty() {
            parts.push(format!("q={}", encode(&self.search)));
        }
        if self.sort != Sort::Activity {
            parts.push(format!("sort={}", self.sort.slug()));
        }
        if parts.is_empty() {
            "/missions".into()
        } else {
            format!("/missions?{}", parts.join("&"))
        }
    }

    /// Whether `m` is in the view: its workspace, and every word searched for in its title
    /// or goal.
    fn shows(&self, m: &ClientMission) -> bool {
        let in_workspace = self
            .workspace
            .as_ref()
            .is_none_or(|ws| m.workspace_id.as_deref() == Some(ws.as_str()));
        let text = format!(
            "{} {}",
            m.title,
            m.description.as_deref().unwrap_or_default()
        )
        .to_lowercase();
        in_workspace
            && self
                .search
                .to_lowercase()
                .split_whitespace()
                .all(|word| text.contains(word))
    }
}

fn group_of(item: &ClientMission) -> MissionGroup {
    let progress = compute_progress(&item.status, &item.tasks);
    mission_group(item, &item.tasks, &progress, item.next_run_at.as_deref())
}

#[component]
fn Missions(list: ClientMissionList, shown: ListView, creating: RwSignal<bool>) -> impl IntoView {
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

/// The search box and the sort, each change written to the address.
#[component]
fn ListTools(shown: ListView) -> impl IntoView {
    let navigate = use_navigate();
    let go = move |view: ListView, replace: bool| {
        let options = leptos_router::NavigateOptions {
            replace,
            ..Default::default()
        };
        navigate(&view.href(), options);
    };
    let (for_search, for_sort) = (shown.clone(), shown.clone());
    let go_search = go.clone();
    // Typing replaces the address rather than adding a history entry per letter.
    let on_search = move |ev| {
        go_search(
            ListView {
                search: event_target_value(&ev),
                ..for_search.clone()
            },
            true,
        )
    };
    let on_sort = move |ev| {
        let slug = event_target_value(&ev);
        let sort = Sort::ALL
            .into_iter()
            .find(|s| s.slug() == slug)
            .unwrap_or_default();
        go(
            ListView {
                sort,
                ..for_sort.clone()
            },
            false,
        )
    };
    view! {
        <label class="field field--inline">
            <span class="sr-only">"Search missions"</span>
            <input type="search" placeholder="Search missions" data-testid="mission-search"
                prop:value=shown.search.clone() on:input=on_search />
        </label>
        <label class="field field--inline">
            <span class="field__label">"Sort"</span>
            <select data-testid="mission-sort" on:change=on_sort>
                {Sort::ALL.into_iter().map(|s| view! {
                    <option value=s.slug() selected=s == shown.sort>{s.label()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}

#[component]
fn WorkspaceFilter(workspaces: Vec<WorkspaceRef>, shown: ListView) -> impl IntoView {
    let navigate = use_navigate();
    let selected = shown.workspace.clone();
    let on_change = move |ev| {
        let value = event_target_value(&ev);
        let view = ListView {
            workspace: (!value.is_empty()).then_some(value),
            ..shown.clone()
        };
        navigate(&view.href(), Default::default());
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
