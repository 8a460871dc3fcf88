//! One task: what it is, what came of it, its PR, and where it sits among its mission's
//! tasks (dependencies, parent, children); a planning task's plan is reviewed here.

use super::{for_route_id, polled_by_id};
use crate::api::{self, ApiError, Connection};
use crate::components::shared::polled::Polled;
use crate::components::task::task_view::TaskView;
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::refresh::polled;
use crate::state::request::with_connection;
use crate::state::title::page_title;
use buildd_core::capabilities::Extra;
use buildd_core::client::{ClientMission, ClientTask};
use buildd_core::pull_request::PullRequestList;
use buildd_core::TaskMessages;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

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
    for_route_id(task_page)
}

fn task_page(id: String) -> impl IntoView {
    let data = polled_by_id(&id, load);
    super::first_screen_once(data);
    page_title(move || data.with_data(|(task, _, _)| task.title.clone()));
    // The task's PR as this server's PR list has it: what merges it, its checks.
    let offered = use_capabilities();
    let connection = use_connection();
    let mission_of = Memo::new(move |_| {
        data.with_data(|(task, _, _)| task.mission_id.clone())
            .flatten()
    });
    let prs = polled(move || {
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
    // `?reject` (the command center's `r`) opens the feedback form at once.
    let reject = use_query_map().with_untracked(|q| q.get("reject").is_some());
    let refresh = data.reload;
    view! {
        <section class="page">
            <Polled read=data loading="Loading the task…" let:loaded>
                <TaskView
                    task=Memo::new(move |_| loaded.with(|l| l.0.clone()))
                    mission=Memo::new(move |_| loaded.with(|l| l.1.clone()))
                    messages=Memo::new(move |_| loaded.with(|l| l.2.clone()))
                    prs
                    refresh
                    reject
                />
            </Polled>
        </section>
    }
}
