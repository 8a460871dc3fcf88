//! The command center: every mission in the planning loop — Planning (steps 1–2) and
//! Execution (steps 3–5) — and "Waiting on you", everything a person must act on, oldest
//! first. Filters (`workspace`, `mode`, `step`) live in the URL; j/k move between missions,
//! Enter opens one, a/r open its plan in review to approve or reject, ? lists the keys.

use crate::components::command::command_keys::command_keys;
use crate::components::command::mission_row::MissionRow;
use crate::components::command::shortcuts::Shortcuts;
use crate::components::command::waiting_list::waiting_list;
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::components::shared::not_offered::NotOffered;
use crate::state::board::{use_board, BoardState};
use crate::state::first_screen::use_first_screen;
use crate::state::title::page_title;
use buildd_core::planning_loop::loop_step;
use buildd_core::MissionStatus;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use send_wrapper::SendWrapper;

#[component]
pub fn CommandPage() -> impl IntoView {
    page_title(|| Some("Command center".into()));
    let query = use_query_map();
    let BoardState {
        missions,
        extras,
        retry,
        waiting,
        ..
    } = use_board();
    let first = use_first_screen();
    super::first_screen_once(missions);
    let workspace = Memo::new(move |_| query.with(|q| q.get("workspace")));
    let step_filter = Memo::new(move |_| query.with(|q| q.get("step")));
    let mode_filter = Memo::new(move |_| query.with(|q| q.get("mode")));
    let selected = RwSignal::new(0usize);
    // Said once, above the list, so a shorter list is not taken for less waiting on you.
    let not_provided = Memo::new(move |_| {
        extras.with(|e| e.as_ref().and_then(|e| e.as_ref().ok()?.not_provided()))
    });
    // The PRs' and questions' refusal, when the missions themselves were read.
    let extras_error = Memo::new(move |_| match (missions.get(), extras.get()) {
        (Some(Ok(_)), Some(Err(e))) => Some(e),
        _ => None,
    });
    // The list's code and the PRs' and questions' reading are one chunk: when it did not
    // load, the card shows the reading's error and Retry, and the list is tried again once
    // the reading succeeds.
    let list_failed = RwSignal::new(false);
    let attempt = RwSignal::new(0u32);
    Effect::new(move |_| {
        if list_failed.get() && extras.with(|e| matches!(e, Some(Ok(_)))) {
            list_failed.set(false);
            attempt.update(|a| *a += 1);
        }
    });
    let rows = Memo::new(move |_| {
        missions.with(|m| match m {
            Some(Ok(m)) => m
                .iter()
                .filter(|m| m.status == MissionStatus::Active)
                .filter(|m| {
                    workspace.with(|w| {
                        w.as_ref()
                            .is_none_or(|w| m.workspace_id.as_ref() == Some(w))
                    })
                })
                .filter(|m| mode_filter.with(|f| f.as_ref().is_none_or(|f| *f == m.mode)))
                .map(|m| (m.clone(), loop_step(&m.tasks)))
                .filter(|(_, s)| {
                    step_filter.with(|f| f.as_ref().is_none_or(|f| *f == s.number().to_string()))
                })
                .collect::<Vec<_>>(),
            _ => vec![],
        })
    });
    let navigate = use_navigate();
    let go = Callback::new(move |to: String| navigate(&to, Default::default()));
    let help = RwSignal::new(false);
    let section = move |planning: bool| {
        move || {
            let all = rows.get();
            let (planning_rows, execution_rows): (Vec<_>, Vec<_>) =
                all.into_iter().partition(|(_, s)| s.is_planning());
            let offset = if planning { 0 } else { planning_rows.len() };
            let list = if planning {
                planning_rows
            } else {
                execution_rows
            };
            if list.is_empty() {
                return view! { <p class="muted">"None."</p> }.into_any();
            }
            view! {
                <ul class="command-rows">
                    {list.into_iter().enumerate().map(|(i, (m, s))| {
                        let selected = Signal::derive(move || selected.get() == offset + i);
                        view! { <MissionRow mission=m step=s selected=selected /> }
                    }).collect_view()}
                </ul>
            }
            .into_any()
        }
    };
    view! {
        <section class="page" data-testid="command-center">
            <header class="page__head">
                <h1>"Command center"</h1>
                <Shortcuts shown=help />
            </header>
            {move || match missions.get() {
                None => Some(view! { <Loading label="Loading missions…" /> }.into_any()),
                Some(Err(e)) => Some(view! { <ErrorPanel error=e on_retry=retry /> }.into_any()),
                Some(Ok(_)) => None,
            }}
            <section class="card" data-testid="waiting-on-you">
                <h2 class="card__title">{move || match waiting.with(|w| w.as_ref().map(Vec::len)) {
                    Some(n) => format!("Waiting on you ({n})"),
                    None => "Waiting on you".to_string(),
                }}</h2>
                {move || not_provided.get().map(|parts| view! { <NotOffered text=parts /> })}
                {move || extras_error.get().map(|e| view! { <ErrorPanel error=e on_retry=retry /> })}
                {move || waiting.with(|w| w.as_ref().is_some_and(Vec::is_empty)).then(|| view! {
                    <p class="muted">"Nothing needs you right now."</p>
                })}
                // The list's code comes once the first rows show (a chunk of its own).
                {move || {
                    attempt.track();
                    Suspend::new(SendWrapper::new(async move {
                        first.shown().await;
                        waiting_list(waiting, retry).await.unwrap_or_else(|_| {
                            list_failed.set(true);
                            ().into_any()
                        })
                    }))
                }}
            </section>
            // The keys come with the chunk that follows the rows.
            {move || Suspend::new(SendWrapper::new(async move {
                first.shown().await;
                command_keys(rows, selected, help, go).await.unwrap_or_else(|_| ().into_any())
            }))}
            <section data-testid="planning-missions">
                <h2>"Planning"</h2>
                {section(true)}
            </section>
            <section data-testid="execution-missions">
                <h2>"Execution"</h2>
                {section(false)}
            </section>
        </section>
    }
}
