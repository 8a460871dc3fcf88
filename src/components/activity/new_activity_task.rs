//! New task from Activity: the shared New task form, with where the task goes picked at its
//! top: a mission (its workspace then) or none, and then a workspace. It opens on the
//! mission and the workspace the filters show.

use super::activity_view::ActivityView;
use super::choices::Choices;
use crate::components::shared::new_task::NewTask;
use buildd_core::activity::NO_MISSION;
use leptos::prelude::*;

#[component]
pub fn NewActivityTask(
    shown: Memo<ActivityView>,
    choices: Memo<Choices>,
    refresh: Callback<()>,
) -> impl IntoView {
    let mission = RwSignal::new(None::<String>);
    let workspace = RwSignal::new(None::<String>);
    let workspace_id = Signal::derive(move || match mission.get() {
        Some(m) => choices.with(|c| c.workspace_of(&m)),
        None => workspace.get(),
    });
    let place = ViewFn::from(move || {
        let (filter_mission, filter_workspace) = shown.with_untracked(|v| {
            (
                v.query.mission_id.clone().filter(|m| m != NO_MISSION),
                v.query.workspace_id.clone(),
            )
        });
        mission.set(filter_mission);
        let first = choices.with_untracked(|c| c.workspaces.first().map(|(id, _)| id.clone()));
        workspace.set(filter_workspace.or(first));
        view! { <TaskPlace choices mission workspace /> }
    });
    view! { <NewTask mission_id=mission workspace_id refresh place /> }
}

/// The mission and, for a task of none, the workspace.
#[component]
fn TaskPlace(
    choices: Memo<Choices>,
    mission: RwSignal<Option<String>>,
    workspace: RwSignal<Option<String>>,
) -> impl IntoView {
    let picked = |v: String| (!v.is_empty()).then_some(v);
    view! {
        <div class="field">
            <label class="field__label" for="new-task-mission">
                "Mission"
            </label>
            <select
                id="new-task-mission"
                data-testid="new-task-mission"
                on:change=move |ev| mission.set(picked(event_target_value(&ev)))
            >
                <option value="" prop:selected=move || mission.with(Option::is_none)>
                    "No mission"
                </option>
                <For each=move || choices.with(|c| c.missions.clone()) key=Clone::clone let:m>
                    {
                        let (id, title) = m;
                        let this = id.clone();
                        view! {
                            <option
                                value=id
                                prop:selected=move || {
                                    mission.with(|now| now.as_ref() == Some(&this))
                                }
                            >
                                {title}
                            </option>
                        }
                    }
                </For>
            </select>
        </div>
        <div class="field" class:hidden=move || mission.with(Option::is_some)>
            <label class="field__label" for="new-task-workspace">
                "Workspace"
            </label>
            <select
                id="new-task-workspace"
                data-testid="new-task-workspace"
                on:change=move |ev| workspace.set(picked(event_target_value(&ev)))
            >
                <For each=move || choices.with(|c| c.workspaces.clone()) key=Clone::clone let:w>
                    {
                        let (id, name) = w;
                        let this = id.clone();
                        view! {
                            <option
                                value=id
                                prop:selected=move || {
                                    workspace.with(|now| now.as_ref() == Some(&this))
                                }
                            >
                                {name}
                            </option>
                        }
                    }
                </For>
            </select>
        </div>
    }
}
