//! `<AgentQuestion>`: the question the latest run's agent waits on, answered in place.

use crate::components::shared::answer_agent::AnswerAgent;
use buildd_core::task::TaskWorker;
use buildd_core::waiting::WaitingFor;
use leptos::prelude::*;

/// Nothing unless the run waits with a question this Buildd shows.
#[component]
pub fn AgentQuestion(latest: Memo<Option<TaskWorker>>, refresh: Callback<()>) -> impl IntoView {
    let question = Memo::new(move |_| {
        latest.with(|r| {
            let r = r.as_ref()?;
            Some((
                r.id.clone(),
                WaitingFor::of(r.waiting_for.as_ref()?)?,
                r.status.is_live(),
            ))
        })
    });
    move || {
        question.get().map(|(worker_id, asks, live)| {
            view! {
                <div class="notice notice--warn" role="status" data-testid="agent-waiting">
                    <strong>"The agent is waiting on you."</strong>
                    <AnswerAgent
                        worker_id
                        prompt=asks.question().to_string()
                        options=asks.options
                        live
                        refresh
                    />
                </div>
            }
        })
    }
}
