//! One half of the command center's list: the missions planning, or those executing, in
//! the order the keys move through them.

use super::mission_row::MissionRow;
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientMission;
use buildd_core::planning_loop::LoopStep;
use leptos::prelude::*;
use std::collections::HashMap;

/// The rows of `rows` whose step is planning (or not, as `planning` says); `selected` is
/// the place in `rows` the keys have reached.
#[component]
pub fn MissionSection(
    planning: bool,
    rows: Memo<Vec<(String, LoopStep)>>,
    missions: PolledRead<Vec<ClientMission>>,
    at: Memo<HashMap<String, usize>>,
    selected: RwSignal<usize>,
) -> impl IntoView {
    let ids = Memo::new(move |_| {
        rows.with(|r| {
            r.iter()
                .filter(|(_, s)| s.is_planning() == planning)
                .map(|(id, _)| id.clone())
                .collect::<Vec<_>>()
        })
    });
    let empty = Memo::new(move |_| ids.with(Vec::is_empty));
    move || {
        if empty.get() {
            return view! { <p class="muted">"None."</p> }.into_any();
        }
        view! {
            <ul class="command-rows">
                <For each=move || ids.get() key=String::clone let:id>
                    <MissionRow
                        id=id.clone()
                        missions
                        at
                        selected=Signal::derive(move || {
                            rows.with(|r| r.get(selected.get()).is_some_and(|(at, _)| *at == id))
                        })
                    />
                </For>
            </ul>
        }
        .into_any()
    }
}
