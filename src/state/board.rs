//! Every mission with its PRs and open questions, read once for the whole app: the nav
//! shows how many things wait on you from any page, the command center lists them. The
//! missions come first, so their rows show without waiting for the rest. PRs and questions
//! across missions are this server's additions; where the server lacks them the board says
//! so rather than showing fewer things waiting.

use crate::api::{self, ApiError};
use crate::state::capabilities::{use_capabilities, Offered};
use crate::state::connection::{use_connection, Connection};
use crate::state::first_screen::{split_off, use_first_screen, Later};
use crate::state::refresh::{polled, Polled};
use crate::state::request::with_connection;
use crate::state::title::provide_title;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::command_center::{waiting_on_you, WaitItem};
use buildd_core::note::MissionNote;
use buildd_core::plan::plan_to_confirm;
use buildd_core::pull_request::PullRequest;
use buildd_core::TaskResult;
use leptos::prelude::*;
use std::sync::Arc;

/// The team's PRs and open questions, read after the missions (`None`: not provided).
/// A read that finds them as they were keeps the same lists, so two readings are equal
/// when they share them: comparing and copying PRs is code the first load does without.
#[derive(Clone, Default)]
pub struct Extras {
    pub prs: Option<Arc<[PullRequest]>>,
    pub questions: Option<Arc<[MissionNote]>>,
}

impl PartialEq for Extras {
    fn eq(&self, other: &Self) -> bool {
        fn same<T: ?Sized>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
            match (a, b) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
        }
        same(&self.prs, &other.prs) && same(&self.questions, &other.questions)
    }
}

/// `read`, or `last` when it holds the same.
fn unchanged<T: PartialEq>(last: &Option<Arc<[T]>>, read: Option<Vec<T>>) -> Option<Arc<[T]>> {
    match (last, read) {
        (Some(last), Some(read)) if **last == *read => Some(last.clone()),
        (_, read) => read.map(Arc::from),
    }
}

impl Extras {
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

/// A finished planning run's result as read: its task id, its `updatedAt` then, the result.
type Read = (String, Option<String>, Option<TaskResult>);

/// Results of finished planning runs read one by one, the latest reading of each: a run
/// that did not change is not read again.
type Confirmed = StoredValue<Vec<Read>>;

/// Buildd's mission list carries no task results, so whether a finished planning run holds
/// a plan in review is read from the task itself; until then it is not claimed.
async fn confirm_plans(c: &Connection, missions: &mut [ClientMission], confirmed: Confirmed) {
    for m in missions.iter_mut() {
        let Some(run) = plan_to_confirm(&m.tasks) else {
            continue;
        };
        let (id, updated_at) = (run.id.clone(), run.updated_at.clone());
        let known = confirmed.with_value(|c| {
            c.iter()
                .find(|(i, u, _)| *i == id && *u == updated_at)
                .map(|(_, _, result)| result.clone())
        });
        let result = match known {
            Some(result) => result,
            None => match run_result(c.clone(), id.clone()).await {
                Ok(result) => {
                    confirmed.update_value(|c| {
                        c.retain(|(i, _, _)| *i != id);
                        c.push((id.clone(), updated_at, result.clone()));
                    });
                    result
                }
                // Not read: it stays unknown, so it is not called a plan in review.
                Err(_) => continue,
            },
        };
        if let Some(t) = m.tasks.iter_mut().find(|t| t.id == id) {
            // Read, so known: null when the run has none.
            t.result = Some(result);
        }
    }
}

split_off!(
    planning_results,
    Option<TaskResult>,
    /// A planning run's result, read from its task. Only Buildd needs it, so in the split
    /// build the task's decoder is a chunk of its own, not part of the first load here.
    fn run_result(c: Connection, id: String) -> Later<Result<Option<TaskResult>, ApiError>> {
        Box::pin(async move { Ok(api::task(&c, &id).await?.result) })
    }
);

async fn load_missions(
    c: Connection,
    confirmed: Confirmed,
) -> Result<Vec<ClientMission>, ApiError> {
    let mut missions = api::board_missions(&c).await?;
    confirm_plans(&c, &mut missions, confirmed).await;
    Ok(missions)
}

split_off!(
    after_first_rows,
    Extras,
    /// The team's PRs and questions, where the server lists them: in the split build, with
    /// their decoders, part of the chunk fetched once the first rows show.
    fn load_extras(
        c: Connection,
        offered: Offered,
        last: StoredValue<Extras>,
    ) -> Later<Result<Extras, ApiError>> {
        Box::pin(async move {
            let c2 = c.clone();
            let prs = offered
                .read(Extra::PullRequests, async move { api::team_prs(&c).await })
                .await?
                .map(|l| l.prs);
            let questions = offered
                .read(
                    Extra::TeamNotes,
                    async move { api::open_questions(&c2).await },
                )
                .await?
                .map(|p| p.notes);
            let extras = last.with_value(|last| Extras {
                prs: unchanged(&last.prs, prs),
                questions: unchanged(&last.questions, questions),
            });
            last.set_value(extras.clone());
            Ok(extras)
        })
    }
);

#[derive(Clone, Copy)]
pub struct BoardState {
    /// As the command center reads them: without description, workspace, schedule and
    /// merge policies.
    pub missions: Polled<Vec<ClientMission>>,
    pub extras: Polled<Extras>,
    /// Reads both again.
    pub retry: Callback<()>,
    /// What a person must act on, oldest first: `None` until the missions, PRs and
    /// questions are all in.
    pub waiting: Memo<Option<Vec<WaitItem>>>,
    /// How many: 0 until they are all in.
    pub count: Memo<usize>,
}

/// Reads `read` of the current connection once what it offers is known, again whenever
/// either changes; a refused key is forgotten, not asked with again.
fn polled_board<T, Fut>(
    read: impl Fn(Connection, Offered) -> Fut + Copy + 'static,
) -> (Polled<T>, Callback<()>)
where
    T: Clone + Default + PartialEq + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<T, ApiError>> + 'static,
{
    let connection = use_connection();
    let offered = use_capabilities();
    polled(move || {
        let connected = connection.get().is_some();
        async move {
            if !connected {
                return Ok(T::default());
            }
            // Loading, rather than empty, until the capabilities are in: they decide what
            // is asked.
            offered.known_soon().await;
            with_connection(&connection, |c| read(c, offered)).await
        }
    })
}

/// Starts reading the board (again whenever the connection or what it offers changes):
/// the missions first, then, once they are drawn, the team's PRs and questions. Keeps the
/// tab's title counting what waits on you.
pub fn provide_board() {
    let first = use_first_screen();
    let confirmed: Confirmed = StoredValue::new(Vec::new());
    let (missions, reload_missions) = polled_board(move |c, _| load_missions(c, confirmed));
    let last_extras = StoredValue::new(Extras::default());
    let (extras, reload_extras) = polled_board(move |c, offered| async move {
        first.shown().await;
        load_extras(c, offered, last_extras).await
    });
    let retry = Callback::new(move |()| {
        reload_missions.run(());
        reload_extras.run(());
    });
    let waiting = Memo::new(move |_| {
        missions.with(|m| {
            extras.with(|e| match (m, e) {
                (Some(Ok(m)), Some(Ok(e))) => Some(waiting_on_you(
                    m,
                    e.prs.as_deref().unwrap_or_default(),
                    e.questions.as_deref().unwrap_or_default(),
                )),
                _ => None,
            })
        })
    });
    let count = Memo::new(move |_| waiting.with(|w| w.as_ref().map_or(0, Vec::len)));
    provide_title(count);
    provide_context(BoardState {
        missions,
        extras,
        retry,
        waiting,
        count,
    });
}

pub fn use_board() -> BoardState {
    expect_context::<BoardState>()
}
