//! The typed client of Buildd's REST API: one function per endpoint, one error type.

mod activity;
mod connection;
mod error;
mod insights;
mod runs;
mod stream;

pub use activity::{activity, query_string, ActivitySource};
pub use connection::Connection;
pub use error::ApiError;
pub use insights::{insights, recorded_prs};
pub use runs::{
    active_tasks, arm_mission, delete_task, respond, start_task, stop_task, waiting_agents,
};
pub use stream::change_stream;

use buildd_core::capabilities::Capabilities;
use buildd_core::client::{
    BoardMissionList, ClientMission, ClientMissionList, ClientRunOutcome, ClientTask,
};
use buildd_core::mission::IdRef;
use buildd_core::note::{MissionNote, NotesPage};
use buildd_core::organizer_runs::MissionRuns;
use buildd_core::plan_feedback::PlanFeedback;
use buildd_core::pull_request::PullRequestList;
use buildd_core::requests::missions::{MissionPatch, NewMission};
use buildd_core::requests::notes::NewNote;
use buildd_core::requests::prs::MergePr;
use buildd_core::requests::tasks::{NewTask, RejectPlan, TaskPatch};
use buildd_core::requests::workers::Instruct;
use buildd_core::requests::workspaces::WorkspacePatch;
use buildd_core::requests::{self, FieldError, Patch, Request};
use buildd_core::{
    AccountMe, ApprovedPlan, Instructed, RejectedPlan, TaskMessages, Workspace, WorkspaceEnvelope,
    WorkspaceList,
};
use buildd_core::{MissionStatus, NoteKind};
use gloo_net::http::Request as HttpRequest;
use serde::de::DeserializeOwned;

/// One copy of each type's parser, kept out of the request futures.
#[inline(never)]
fn decode<T: DeserializeOwned>(text: &str) -> Result<T, ApiError> {
    serde_json::from_str(text).map_err(|e| ApiError::Decode(e.to_string()))
}

/// The body of a successful request, or why there is none. Not generic, so the request
/// code exists once however many types are read.
#[inline(never)]
async fn fetch_text(
    conn: &Connection,
    method: &str,
    path: &str,
    body: Option<String>,
) -> Result<String, ApiError> {
    let url = conn.url(path);
    let builder = match method {
        "POST" => HttpRequest::post(&url),
        "PATCH" => HttpRequest::patch(&url),
        "PUT" => HttpRequest::put(&url),
        "DELETE" => HttpRequest::delete(&url),
        _ => HttpRequest::get(&url),
    }
    .header("Authorization", &format!("Bearer {}", conn.key))
    .header("Accept", "application/json");
    let sent = match body {
        Some(json) => {
            builder
                .header("Content-Type", "application/json")
                .body(json)
                .map_err(|e| ApiError::Decode(e.to_string()))?
                .send()
                .await
        }
        None => builder.send().await,
    };
    let response = sent.map_err(|_| ApiError::Unreachable(conn.server_name()))?;
    if !response.ok() {
        return Err(refusal(response).await);
    }
    response
        .text()
        .await
        .map_err(|e| ApiError::Decode(e.to_string()))
}

/// A refused request's error, in the server's own words when it gave them as
/// `{"error"}` (with each field's problem when it listed them), else the status text.
async fn refusal(response: gloo_net::http::Response) -> ApiError {
    /// `{error}`, or a field's `{error, field, errors?: [{field, path, code, message}]}`.
    #[derive(serde::Deserialize)]
    struct Refusal {
        error: String,
        #[serde(default)]
        field: Option<String>,
        #[serde(default)]
        errors: Vec<serde_json::Value>,
    }
    let status = response.status();
    match response.json::<Refusal>().await {
        Ok(r) if status == 400 && (r.field.is_some() || !r.errors.is_empty()) => {
            let field = r.field.unwrap_or_else(|| "body".into());
            ApiError::Invalid(FieldError::new(&field, r.error).with_errors(r.errors))
        }
        Ok(r) => ApiError::from_status(status, r.error),
        Err(_) => ApiError::from_status(status, response.status_text()),
    }
}

/// `request` as a body, once it passes the rules the server will apply (buildd-core's
/// `requests::check`): a refusal here is the server's own, without the round trip.
fn body_of<R: Request>(request: &R) -> Result<String, ApiError> {
    requests::check(request).map_err(ApiError::Invalid)?;
    serde_json::to_string(request).map_err(|e| ApiError::Decode(e.to_string()))
}

async fn get<T: DeserializeOwned>(conn: &Connection, path: &str) -> Result<T, ApiError> {
    decode(&fetch_text(conn, "GET", path, None).await?)
}

async fn post<T: DeserializeOwned>(
    conn: &Connection,
    path: &str,
    body: Option<String>,
) -> Result<T, ApiError> {
    decode(&fetch_text(conn, "POST", path, body).await?)
}

/// `GET /api/missions/capabilities` at `base`, sent without a key (Buildd answers it to
/// anyone), so it can be read before a key is known to work.
pub async fn capabilities(base: &str) -> Result<Capabilities, ApiError> {
    let response = HttpRequest::get(&format!("{base}/api/missions/capabilities"))
        .header("Accept", "application/json")
        .send()
        .await
        .map_err(|_| ApiError::Unreachable(base.to_string()))?;
    if !response.ok() {
        return Err(refusal(response).await);
    }
    let text = response
        .text()
        .await
        .map_err(|e| ApiError::Decode(e.to_string()))?;
    decode(&text)
}

/// `GET /api/accounts/me`: who the key is, and at which level.
pub async fn account_me(conn: &Connection) -> Result<AccountMe, ApiError> {
    get(conn, "/api/accounts/me").await
}

/// `GET /api/missions`, as the command center reads it (see [`BoardMissionList`]).
pub async fn board_missions(conn: &Connection) -> Result<Vec<ClientMission>, ApiError> {
    Ok(get::<BoardMissionList>(conn, "/api/missions")
        .await?
        .into_missions())
}

/// `GET /api/missions`.
pub async fn missions(conn: &Connection) -> Result<ClientMissionList, ApiError> {
    get(conn, "/api/missions").await
}

/// `GET /api/missions/{id}`.
pub async fn mission(conn: &Connection, id: &str) -> Result<ClientMission, ApiError> {
    get(conn, &format!("/api/missions/{}", encode(id))).await
}

/// `GET /api/tasks/{id}`.
pub async fn task(conn: &Connection, id: &str) -> Result<ClientTask, ApiError> {
    get(conn, &format!("/api/tasks/{}?include=workers", encode(id))).await
}

fn encode(segment: &str) -> String {
    js_sys::encode_uri_component(segment).into()
}

/// `POST /api/tasks/{id}/approve-plan` → the children's ids.
pub async fn approve_plan(conn: &Connection, id: &str) -> Result<ApprovedPlan, ApiError> {
    post(
        conn,
        &format!("/api/tasks/{}/approve-plan", encode(id)),
        None,
    )
    .await
}

/// `POST /api/tasks/{id}/reject-plan`: the revised planning task. A server that takes
/// comments pinned to steps gets them apart; Buildd gets each folded into the feedback as a
/// line of its own, so its organizer still reads them ([`RejectPlan::of`]).
pub async fn reject_plan(
    conn: &Connection,
    id: &str,
    review: &PlanFeedback,
    step_comments_taken: bool,
) -> Result<RejectedPlan, ApiError> {
    let body = body_of(&RejectPlan::of(review, step_comments_taken))?;
    post(
        conn,
        &format!("/api/tasks/{}/reject-plan", encode(id)),
        Some(body),
    )
    .await
}

/// `GET /api/tasks/{id}/messages`: the steering history of the task's newest worker.
pub async fn task_messages(conn: &Connection, id: &str) -> Result<TaskMessages, ApiError> {
    get(conn, &format!("/api/tasks/{}/messages", encode(id))).await
}

/// `POST /api/workers/{id}/instruct` `{message}`: a message for a running agent.
pub async fn instruct(
    conn: &Connection,
    worker_id: &str,
    message: &str,
) -> Result<Instructed, ApiError> {
    let body = body_of(&Instruct::new(message))?;
    post(
        conn,
        &format!("/api/workers/{}/instruct", encode(worker_id)),
        Some(body),
    )
    .await
}

/// A PATCH whose answer the caller does not read (it refreshes instead).
async fn patch<R: Request>(conn: &Connection, path: &str, request: &R) -> Result<(), ApiError> {
    fetch_text(conn, "PATCH", path, Some(body_of(request)?))
        .await
        .map(|_| ())
}

/// `PATCH /api/missions/{id}`: what `change` names changes.
pub async fn update_mission(
    conn: &Connection,
    id: &str,
    change: &MissionPatch,
) -> Result<(), ApiError> {
    patch(conn, &format!("/api/missions/{}", encode(id)), change).await
}

/// `PATCH /api/tasks/{id}`: what `change` names changes.
pub async fn update_task(conn: &Connection, id: &str, change: &TaskPatch) -> Result<(), ApiError> {
    patch(conn, &format!("/api/tasks/{}", encode(id)), change).await
}

/// `POST /api/missions`: the new mission's id.
pub async fn create_mission(conn: &Connection, mission: &NewMission) -> Result<String, ApiError> {
    let created: IdRef = post(conn, "/api/missions", Some(body_of(mission)?)).await?;
    Ok(created.id)
}

/// `POST /api/tasks`: the new task's id.
pub async fn create_task(conn: &Connection, task: &NewTask) -> Result<String, ApiError> {
    let created: IdRef = post(conn, "/api/tasks", Some(body_of(task)?)).await?;
    Ok(created.id)
}

/// Close mission: the mission becomes completed and its check-ins stop.
pub async fn close_mission(conn: &Connection, id: &str) -> Result<(), ApiError> {
    let change = MissionPatch {
        status: Some(MissionStatus::Completed),
        ..MissionPatch::default()
    };
    update_mission(conn, id, &change).await
}

/// Sets the mission's budget (`None` clears it): Buildd's own `PATCH /api/missions/{id}
/// {costBudgetUsd}`, which resumes a mission that ran out when raised above its spend.
pub async fn set_budget(
    conn: &Connection,
    id: &str,
    budget: Option<buildd_core::money::Usd>,
) -> Result<(), ApiError> {
    let change = MissionPatch {
        cost_budget_usd: Patch::Value(buildd_core::budget::budget_value(budget)),
        ..MissionPatch::default()
    };
    update_mission(conn, id, &change).await
}

/// Run a failed task again: it goes back to the queue for the next runner.
pub async fn queue_again(conn: &Connection, id: &str) -> Result<(), ApiError> {
    update_task(conn, id, &TaskPatch::requeue()).await
}

/// `GET /api/workspaces/{id}`.
pub async fn workspace(conn: &Connection, id: &str) -> Result<Workspace, ApiError> {
    let envelope: WorkspaceEnvelope = get(conn, &format!("/api/workspaces/{}", encode(id))).await?;
    Ok(envelope.workspace)
}

/// `GET /api/workspaces`: the team's workspaces (Buildd serves it to keys).
pub async fn workspaces(conn: &Connection) -> Result<WorkspaceList, ApiError> {
    get(conn, "/api/workspaces").await
}

/// `PATCH /api/workspaces/{id}` (`gitConfig` merges key by key).
pub async fn update_workspace(
    conn: &Connection,
    id: &str,
    change: &WorkspacePatch,
) -> Result<(), ApiError> {
    patch(conn, &format!("/api/workspaces/{}", encode(id)), change).await
}

/// `POST /api/missions/{id}/run`: an organizer run now.
pub async fn run_mission(conn: &Connection, id: &str) -> Result<ClientRunOutcome, ApiError> {
    post(conn, &format!("/api/missions/{}/run", encode(id)), None).await
}

/// `GET /api/missions/{id}/runs`: organizer runs and check-ins, newest first.
pub async fn mission_runs(conn: &Connection, id: &str) -> Result<MissionRuns, ApiError> {
    get(conn, &format!("/api/missions/{}/runs", encode(id))).await
}

/// `GET /api/prs?missionId=`: the mission's PRs with their evaluation.
pub async fn mission_prs(conn: &Connection, mission_id: &str) -> Result<PullRequestList, ApiError> {
    get(conn, &format!("/api/prs?missionId={}", encode(mission_id))).await
}

/// `POST /api/prs/{number}/merge` `{workspaceId}`: a person merges the PR. Buildd answers
/// `{ok, merged}`; the PR list refreshes to show the rest.
pub async fn merge_pr(conn: &Connection, number: i64, workspace_id: &str) -> Result<(), ApiError> {
    let body = body_of(&MergePr::new(workspace_id))?;
    fetch_text(
        conn,
        "POST",
        &format!("/api/prs/{number}/merge"),
        Some(body),
    )
    .await
    .map(|_| ())
}

/// `GET /api/missions/{id}/notes?limit=50`: the newest notes.
pub async fn mission_notes(conn: &Connection, id: &str) -> Result<NotesPage, ApiError> {
    get(
        conn,
        &format!("/api/missions/{}/notes?limit=50", encode(id)),
    )
    .await
}

/// `GET /api/missions/{id}/notes?limit=50&cursor=…`: the page after `cursor`, older notes.
pub async fn older_notes(conn: &Connection, id: &str, cursor: &str) -> Result<NotesPage, ApiError> {
    let path = format!(
        "/api/missions/{}/notes?limit=50&cursor={}",
        encode(id),
        encode(cursor)
    );
    get(conn, &path).await
}

/// `POST /api/missions/{id}/notes`: a note from a person ([`NewNote::by_person`] says why
/// it names the author).
pub async fn post_note(
    conn: &Connection,
    id: &str,
    kind: NoteKind,
    title: &str,
) -> Result<MissionNote, ApiError> {
    send_note(conn, id, &NewNote::by_person(kind, title)).await
}

/// A person answers note `note`, through the notes endpoint (see [`NewNote::reply`]).
pub async fn reply_note(
    conn: &Connection,
    id: &str,
    note: &str,
    title: &str,
) -> Result<MissionNote, ApiError> {
    send_note(conn, id, &NewNote::reply(note, title)).await
}

async fn send_note(conn: &Connection, id: &str, note: &NewNote) -> Result<MissionNote, ApiError> {
    let path = format!("/api/missions/{}/notes", encode(id));
    post(conn, &path, Some(body_of(note)?)).await
}

/// `GET /api/notes?status=open&type=question`: the team's open questions.
pub async fn open_questions(conn: &Connection) -> Result<NotesPage, ApiError> {
    get(conn, "/api/notes?status=open&type=question").await
}

/// `GET /api/prs`: the team's PRs.
pub async fn team_prs(conn: &Connection) -> Result<PullRequestList, ApiError> {
    get(conn, "/api/prs").await
}

/// `POST /api/missions/{id}/reconcile`: a hosted Buildd re-reads the mission's PR state
/// from GitHub.
pub async fn reconcile_prs(
    conn: &Connection,
    mission_id: &str,
) -> Result<buildd_core::reconcile::Reconciled, ApiError> {
    let path = format!("/api/missions/{}/reconcile", encode(mission_id));
    post(conn, &path, None).await
}

/// The open questions of `missions`, read mission by mission (`GET
/// /api/missions/{id}/notes?type=question`), where the API lists no team-wide notes
/// (Buildd); what is still open is decided by buildd-core's `waiting_on_you`.
pub async fn questions_of(
    conn: &Connection,
    missions: &[String],
) -> Result<Vec<MissionNote>, ApiError> {
    let mut questions = Vec::new();
    for id in missions {
        let path = format!("/api/missions/{}/notes?type=question", encode(id));
        match get::<NotesPage>(conn, &path).await {
            Ok(page) => questions.extend(page.notes),
            // Deleted since the list was read: it asks nothing.
            Err(ApiError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(questions)
}

/// `PUT /api/github/pr {prNumber, workspaceId}`: merges a PR on a hosted Buildd, whose
/// `POST /api/prs/{n}/merge` takes only a browser session. Buildd's answer as it is: a
/// refusal (no GitHub link, checks, a conflict) comes back as its error or its message.
pub async fn merge_on_buildd(
    conn: &Connection,
    number: i64,
    workspace_id: &str,
) -> Result<buildd_core::requests::prs::BuilddMerged, ApiError> {
    let request = buildd_core::requests::prs::MergeOnBuildd {
        pr_number: number,
        workspace_id: workspace_id.to_string(),
    };
    decode(&fetch_text(conn, "PUT", "/api/github/pr", Some(body_of(&request)?)).await?)
}
