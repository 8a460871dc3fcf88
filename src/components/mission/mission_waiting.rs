//! The mission's agents waiting on a person, each with its question answered in place.

use crate::components::shared::answer_agent::AnswerAgent;
use buildd_core::client::ClientMission;
use buildd_core::waiting::WaitingFor;
use leptos::prelude::*;
use std::sync::Arc;

/// (task id, task title, worker id, question, live) of each waiting agent.
type Waiting = (String, String, String, WaitingFor, bool);

fn waiting(mission: &ClientMission) -> Vec<Waiting> {
    mission
        .tasks
        .iter()
        .filter_map(|t| {
            let run = t.workers.first()?;
            let asks = WaitingFor::of(run.waiting_for.as_ref()?)?;
            Some((
                t.id.clone(),
                t.title.clone(),
                run.id.clone(),
                asks,
                run.status.is_live(),
            ))
        })
        .collect()
}

#[component]
pub fn MissionWaiting(mission: Memo<Arc<ClientMission>>, refresh: Callback<()>) -> impl IntoView {
    let agents = Memo::new(move |_| mission.with(|m| waiting(m)));
    let agent = move |(task, title, worker_id, asks, live): Waiting| {
        view! {
            <li data-testid="mission-agent-waiting">
                <a href=format!("/tasks/{task}")>{title}</a>
                <AnswerAgent
                    worker_id
                    prompt=asks.question().to_string()
                    options=asks.options
                    live
                    refresh
                />
            </li>
        }
    };
    move || {
        (!agents.with(Vec::is_empty)).then(|| {
            view! {
                <section class="card plan-waiting" data-testid="mission-waiting" role="status">
                    <h2 class="card__title">"Agents waiting on you"</h2>
                    <ul class="plain-list">
                        <For
                            each=move || agents.get()
                            key=|a| (a.2.clone(), a.3.prompt.clone())
                            children=agent
                        />
                    </ul>
                </section>
            }
        })
    }
}
