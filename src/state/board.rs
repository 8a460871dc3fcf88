//! Every mission with its PRs and open questions, read once for the whole app: the nav
//! shows how many things wait on you from any page, the command center lists them.

use crate::api::{self, ApiError};
use crate::state::connection::{use_connection, Connection};
use crate::state::refresh::{polled, Polled};
use buildd_core::client::ClientMission;
use buildd_core::command_center::{waiting_on_you, WaitItem};
use buildd_core::note::MissionNote;
use buildd_core::pull_request::PullRequest;
use leptos::prelude::*;

pub type Board = (Vec<ClientMission>, Vec<PullRequest>, Vec<MissionNote>);

const TITLE: &str = "Buildd Mission Control";

async fn load(c: Option<Connection>) -> Result<Board, ApiError> {
    let Some(c) = c else {
        return Ok(Default::default());
    };
    let missions = api::missions(&c).await?.missions;
    // A Buildd without these lists still shows its missions.
    let prs = api::team_prs(&c).await.map(|l| l.prs).unwrap_or_default();
    let questions = api::open_questions(&c)
        .await
        .map(|p| p.notes)
        .unwrap_or_default();
    Ok((missions, prs, questions))
}

#[derive(Clone, Copy)]
pub struct BoardState {
    pub board: Polled<Board>,
    pub retry: Callback<()>,
    /// What a person must act on, oldest first.
    pub waiting: Memo<Vec<WaitItem>>,
}

/// Starts reading the board (again whenever the connection changes) and keeps the tab's
/// title counting what waits on you.
pub fn provide_board() {
    let connection = use_connection();
    let (board, retry) = polled(move || load(connection.get()));
    let waiting = Memo::new(move |_| {
        board.with(|b| match b {
            Some(Ok((missions, prs, questions))) => waiting_on_you(missions, prs, questions),
            _ => vec![],
        })
    });
    Effect::new(move |_| {
        let n = waiting.with(Vec::len);
        document().set_title(&if n > 0 {
            format!("({n}) {TITLE}")
        } else {
            TITLE.into()
        });
    });
    provide_context(BoardState {
        board,
        retry,
        waiting,
    });
}

pub fn use_board() -> BoardState {
    expect_context::<BoardState>()
}
