//! Every mission with its PRs and open questions, read once for the whole app: the nav
//! shows how many things wait on you from any page, the command center lists them. PRs and
//! questions across missions are this server's additions; where the server lacks them the
//! board says so rather than showing fewer things waiting.

use crate::api::{self, ApiError};
use crate::state::capabilities::{use_capabilities, Offered};
use crate::state::connection::{use_connection, Connection};
use crate::state::refresh::{polled, Polled};
use crate::state::title::provide_title;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::command_center::{waiting_on_you, WaitItem};
use buildd_core::note::MissionNote;
use buildd_core::plan::plan_to_confirm;
use buildd_core::pull_request::PullRequest;
use buildd_core::TaskResult;
use leptos::prelude::*;
use std::collections::HashMap;

/// The missions, then the team's PRs and open questions (`None`: not provided).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    pub missions: Vec<ClientMission>,
    pub prs: Option<Vec<PullRequest>>,
    pub questions: Option<Vec<MissionNote>>,
}

impl Board {
    /// What "Waiting on you" cannot count because the server does not provide it, in words.
    pub fn not_provided(&self) -> Option<String> {
        let parts = match (self.prs.is_none(), self.questions.is_none()) {
            (false, false) => return None,
            (true, false) => "pull requests held for you",
            (false, true) => "the organizer's open questions",
            (true, true) => "pull requests held for you or the organizer's open questions",
        };
        let feed = if self.questions.is_none() {
            " A mission's feed shows its questions."
        } else {
            ""
        };
        Some(format!(
            "This server does not list {parts} across missions, so they are not counted here.{feed}"
        ))
    }
}

/// Results of finished planning runs read one by one, by task id and `updatedAt`: a run
/// that did not change is not read again.
type Confirmed = StoredValue<HashMap<(String, Option<String>), Option<TaskResult>>>;

/// Buildd's mission list carries no task results, so whether a finished planning run holds
/// a plan in review is read from the task itself; until then it is not claimed.
async fn confirm_plans(c: &Connection, missions: &mut [ClientMission], confirmed: Confirmed) {
    for m in missions.iter_mut() {
        let Some(run) = plan_to_confirm(&m.tasks) else {
            continue;
        };
        let key = (run.id.clone(), run.updated_at.clone());
        let known = confirmed.with_value(|c| c.get(&key).cloned());
        let result = match known {
            Some(result) => result,
            None => match api::task(c, &key.0).await {
                Ok(task) => {
                    confirmed.update_value(|c| {
                        c.insert(key.clone(), task.result.clone());
                    });
                    task.result
                }
                // Not read: it stays unknown, so it is not called a plan in review.
                Err(_) => continue,
            },
        };
        if let Some(t) = m.tasks.iter_mut().find(|t| t.id == key.0) {
            // Read, so known: null when the run has none.
            t.result = Some(result);
        }
    }
}

async fn load(c: Connection, offered: Offered, confirmed: Confirmed) -> Result<Board, ApiError> {
    let mut missions = api::missions(&c).await?.missions;
    confirm_plans(&c, &mut missions, confirmed).await;
    let (c1, c2) = (c.clone(), c);
    let prs = offered
        .read(Extra::PullRequests, async move { api::team_prs(&c1).await })
        .await?
        .map(|l| l.prs);
    let questions = offered
        .read(
            Extra::TeamNotes,
            async move { api::open_questions(&c2).await },
        )
        .await?
        .map(|p| p.notes);
    Ok(Board {
        missions,
        prs,
        questions,
    })
}

#[derive(Clone, Copy)]
pub struct BoardState {
    pub board: Polled<Board>,
    pub retry: Callback<()>,
    /// What a person must act on, oldest first.
    pub waiting: Memo<Vec<WaitItem>>,
}

/// Starts reading the board (again whenever the connection or what it offers changes) and
/// keeps the tab's title counting what waits on you.
pub fn provide_board() {
    let connection = use_connection();
    let offered = use_capabilities();
    let confirmed: Confirmed = StoredValue::new(HashMap::new());
    let state = connection;
    let (board, retry) = polled(move || {
        let connection = connection.get();
        async move {
            match connection {
                None => Ok(Board::default()),
                Some(c) => {
                    // The board stays loading, rather than empty, until the capabilities
                    // are in: they decide what is asked.
                    offered.known_soon().await;
                    let board = load(c, offered, confirmed).await;
                    // A refused key is forgotten, not asked with again.
                    if matches!(board, Err(ApiError::Unauthorized(_))) {
                        state.reject();
                    }
                    board
                }
            }
        }
    });
    let waiting = Memo::new(move |_| {
        board.with(|b| match b {
            Some(Ok(b)) => waiting_on_you(
                &b.missions,
                b.prs.as_deref().unwrap_or_default(),
                b.questions.as_deref().unwrap_or_default(),
            ),
            _ => vec![],
        })
    });
    provide_title(Memo::new(move |_| waiting.with(Vec::len)));
    provide_context(BoardState {
        board,
        retry,
        waiting,
    });
}

pub fn use_board() -> BoardState {
    expect_context::<BoardState>()
}
