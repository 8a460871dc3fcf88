//! Activity's filters: status, mission (or none), workspace and mode, and the grouping;
//! each change is written to the address, which the list reads.

use super::activity_view::{view_changer, ActivityView, ViewChange};
use super::filter_select::FilterSelect;
use buildd_core::activity::{Grouping, NO_MISSION};
use buildd_core::{TaskMode, TaskStatus};
use leptos::prelude::*;

fn statuses() -> Vec<(String, String)> {
    std::iter::once(("active".to_string(), "Unfinished".to_string()))
        .chain(
            TaskStatus::ALL
                .iter()
                .map(|s| (s.as_str().to_string(), s.label().into_owned())),
        )
        .collect()
}

fn modes() -> Vec<(String, String)> {
    TaskMode::ALL
        .iter()
        .map(|m| (m.as_str().to_string(), m.label().into_owned()))
        .collect()
}

fn groupings() -> Vec<(String, String)> {
    [
        (Grouping::Status, "By status"),
        (Grouping::Mission, "By mission"),
    ]
    .into_iter()
    .map(|(g, label)| (g.as_str().to_string(), label.to_string()))
    .collect()
}

#[component]
pub fn ActivityFilters(
    shown: Memo<ActivityView>,
    /// The team's missions: (id, title).
    #[prop(into)]
    missions: Signal<Vec<(String, String)>>,
    /// The team's workspaces: (id, name).
    #[prop(into)]
    workspaces: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    let change = view_changer(shown);
    let pick = move |to: fn(String) -> ViewChange| {
        Callback::new(move |value: String| change.run((to(value), false)))
    };
    let now = move |read: fn(&ActivityView) -> Option<String>| {
        Signal::derive(move || shown.with(read).unwrap_or_default())
    };
    let mission_options = Signal::derive(move || {
        std::iter::once((NO_MISSION.to_string(), "No mission".to_string()))
            .chain(missions.get())
            .collect::<Vec<_>>()
    });
    view! {
        <FilterSelect
            label="Status"
            testid="activity-status"
            any="Any status"
            options=statuses()
            value=now(|v| v.query.status.clone())
            on_pick=pick(ViewChange::Status)
        />
        <FilterSelect
            label="Mission"
            testid="activity-mission"
            any="Any mission"
            options=mission_options
            value=now(|v| v.query.mission_id.clone())
            on_pick=pick(ViewChange::Mission)
        />
        <FilterSelect
            label="Workspace"
            testid="activity-workspace"
            any="Any workspace"
            options=workspaces
            value=now(|v| v.query.workspace_id.clone())
            on_pick=pick(ViewChange::Workspace)
        />
        <FilterSelect
            label="Mode"
            testid="activity-mode"
            any="Any mode"
            options=modes()
            value=now(|v| v.query.mode.as_ref().map(|m| m.as_str().to_string()))
            on_pick=pick(ViewChange::Mode)
        />
        <FilterSelect
            label="Group"
            testid="activity-grouping"
            any="No grouping"
            options=groupings()
            value=now(|v| {
                (v.grouping != Grouping::None).then(|| v.grouping.as_str().to_string())
            })
            on_pick=pick(ViewChange::Group)
        />
    }
}
