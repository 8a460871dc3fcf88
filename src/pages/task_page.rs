//! One task: what it is, what came of it, its PR, and where it sits among its mission's
//! tasks (dependencies, parent, children).

use super::{polled_by_id, route_id};
use crate::api::{self, ApiError};
use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::components::task::message_agent::MessageDraft;
use crate::components::task::plan_review_panel::ReviewState;
use crate::components::task::task_view::TaskView;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::{use_connection, Connection};
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use crate::state::write::Write;
use buildd_core::capabilities::Extra;
use buildd_core::client::{ClientMission, ClientTask};
use buildd_core::pull_request::PullRequestList;
use buildd_core::TaskMessages;
use leptos::prelude::*;

/// What the page shows: the task, its mission (which names dependencies, the parent and
/// the children, and tells where a plan stands), and its steering messages.
type Loaded = (ClientTask, Option<ClientMission>, Option<TaskMessages>);

async fn load(c: Connection, id: String) -> Result<Loaded, ApiError> {
    let task = api::task(&c, &id).await?;
    let mission = match &task.mission_id {
        Some(m) => api::mission(&c, m).await.ok(),
        None => None,
    };
    let messages = api::task_messages(&c, &id).await.ok();
    Ok((task, mission, messages))
}

#[component]
pub fn TaskPage() -> impl IntoView {
    let id = route_id();
    let (data, retry) = polled_by_id(id, load);
    super::first_screen_once(data);
    page_title(move || {
        data.with(|d| match d {
            Some(Ok((task, _, _))) => Some(task.title.clone()),
            _ => None,
        })
    });
    // The task's PR as this server's PR list has it: what merges it, its checks.
    let offered = use_capabilities();
    let connection = use_connection();
    let mission_of = Memo::new(move |_| {
        data.with(|d| match d {
            Some(Ok((task, _, _))) => task.mission_id.clone(),
            _ => None,
        })
    });
    let (prs, _) = polled(move || {
        let mission = mission_of.get();
        with_connection(&connection, move |c| {
            offered.read(Extra::PullRequests, async move {
                match mission {
                    Some(m) => api::mission_prs(&c, &m).await,
                    None => Ok(PullRequestList { prs: vec![] }),
                }
            })
        })
    });
    let review = ReviewState::default();
    // `?reject` (the command center's `r`) opens the feedback form at once.
    let query = leptos_router::hooks::use_query_map();
    if query.with_untracked(|q| q.get("reject").is_some()) {
        review.rejecting.set(true);
    }
    let draft = MessageDraft::default();
    let retrying = Write::new();
    // Another task on the same route starts with none of this one's state.
    Effect::new(move |previous: Option<String>| {
        let current = id.get();
        if previous.is_some_and(|p| p != current) {
            review.reset();
            draft.reset();
            retrying.reset();
        }
        current
    });
    view! {
        <section class="page">
            {move || match data.get() {
                None => view! { <Loading label="Loading the task…" /> }.into_any(),
                Some(Ok((task, mission, messages))) => view! {
                    <TaskView
                        task=task
                        mission=mission
                        messages=messages
                        review=review
                        draft=draft
                        retrying=retrying
                        prs=prs
                        refresh=retry
                    />
                }
                    .into_any(),
                Some(Err(e)) => view! { <ErrorPanel error=e on_retry=retry /> }.into_any(),
            }}
        </section>
    }
}
