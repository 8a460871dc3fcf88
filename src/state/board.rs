//! Every mission with its PRs and open questions, read once for the whole app: the nav
//! shows how many things wait on you from any page, the command center lists them. The
//! missions come first, so their rows show without waiting for the rest. PRs and questions
//! across missions are this server's additions; where the server lacks them the board says
//! so rather than showing fewer things waiting.

use crate::api::{self, ApiError, Connection};
use crate::state::capabilities::{use_capabilities, Offered};
use crate::state::connection::use_connection;
use crate::state::first_screen::{split_off, use_first_screen, Later};
use crate::state::refresh::{polled, PolledRead};
use crate::state::request::with_connection;
use crate::state::title::provide_title;
use buildd_core::capabilities::Extra;
use buildd_core::client::ClientMission;
use buildd_core::command_center::{waiting_on_you, WaitItem};
use buildd_core::note::MissionNote;
use buildd_core::plan::plan_to_confirm;
use buildd_core::pull_request::PullRequest;
use buildd_core::waiting::WaitingTask;
use buildd_core::TaskResult;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The team's PRs and open questions, read after the missions (`None`: the server does not
/// list them; PRs are then read from the missions' tasks). A read that finds the same lists as the last one keeps the last one's `Arc`s
/// (`unchanged`), so two `Extras` are equal when they point at the same lists. PRs are
/// then compared item by item only inside that read, which the split build fetches later,
/// and never copied: the first load carries no code for either.
#[derive(Clone, Default)]
pub struct Extras {
    pub prs: Option<Arc<[PullRequest]>>,
    pub questions: Option<Arc<[MissionNote]>>,
    /// Agents waiting on a person's answer.
    pub agents: Option<Arc<[WaitingTask]>>,
}

impl PartialEq for Extras {
    fn eq(&self, other: &Self) -> bool {
        fn same<T: ?Sized>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
            match (a, b) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            }
        }
        same(&self.prs, &other.prs)
            && same(&self.questions, &other.questions)
            && same(&self.agents, &other.agents)
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
        let missing: Vec<&str> = [
            (self.questions.is_none(), "the organizer's open questions"),
            (self.agents.is_none(), "agents waiting on an answer"),
        ]
        .into_iter()
        .filter_map(|(missing, what)| missing.then_some(what))
        .collect();
        let parts = match missing.as_slice() {
            [] => return None,
            [one] => one.to_string(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
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

split_off!(
    planning_results,
    (),
    /// Buildd's mission list carries no task results, so whether a finished planning run
    /// holds a plan in review is read from the task itself; until then it is not claimed.
    /// Only Buildd needs it, so in the split build this and the task's decoder are a chunk
    /// of their own, not part of the first load here.
    fn confirm_plans(
        c: Connection,
        missions: Rc<RefCell<Vec<ClientMission>>>,
        confirmed: Confirmed,
    ) -> Later<Result<(), ApiError>> {
        Box::pin(async move {
            let count = missions.borrow().len();
            for at in 0..count {
                let run = plan_to_confirm(&missions.borrow()[at].tasks)
                    .map(|run| (run.id.clone(), run.updated_at.clone()));
                let Some((id, updated_at)) = run else {
                    continue;
                };
                let known = confirmed.with_value(|c| {
                    c.iter()
                        .find(|(i, u, _)| *i == id && *u == updated_at)
                        .map(|(_, _, result)| result.clone())
                });
                let result = match known {
                    Some(result) => result,
                    None => match api::task(&c, &id).await {
                        Ok(task) => {
                            confirmed.update_value(|c| {
                                c.retain(|(i, _, _)| *i != id);
                                c.push((id.clone(), updated_at, task.result.clone()));
                            });
                            task.result
                        }
                        // Not read: it stays unknown, so it is not called a plan in review.
                        Err(_) => continue,
                    },
                };
                if let Some(t) = missions.borrow_mut()[at]
                    .tasks
                    .iter_mut()
                    .find(|t| t.id == id)
                {
                    // Read, so known: null when the run has none.
                    t.result = Some(result);
                }
            }
            Ok(())
        })
    }
);

async fn load_missions(
    c: Connection,
    confirmed: Confirmed,
) -> Result<Vec<ClientMission>, ApiError> {
    let missions = api::board_missions(&c).await?;
    if !missions.iter().any(|m| plan_to_confirm(&m.tasks).is_some()) {
        return Ok(missions);
    }
    let missions = Rc::new(RefCell::new(missions));
    // A chunk that does not load leaves the runs unknown: none is called a plan in review.
    let _ = confirm_plans(c, missions.clone(), confirmed).await;
    Ok(Rc::into_inner(missions)
        .map(RefCell::into_inner)
        .unwrap_or_default())
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
        watch: Watch,
    ) -> Later<Result<Extras, ApiError>> {
        watch.start();
        Box::pin(async move {
            let (c2, c3) = (c.clone(), c.clone());
            let prs = offered
                .read(Extra::PullRequests, async move { api::team_prs(&c).await })
                .await?
                .map(|l| l.prs);
            let c4 = c2.clone();
            let questions = match offered
                .read(
                    Extra::TeamNotes,
                    async move { api::open_questions(&c2).await },
                )
                .await?
            {
                Some(page) => Some(page.notes),
                // Buildd lists questions mission by mission.
                None => {
                    let open = untrack(|| watch.missions.data())
                        .map(|m| {
                            m.iter()
                                .filter(|m| m.status.is_open())
                                .map(|m| m.id.clone())
                                .collect::<Vec<_>>()
                        })
                        .unwrap_or_default();
                    Some(api::questions_of(&c4, &open).await?)
                }
            };
            let agents = offered
                .read(Extra::WaitingAgents, async move {
                    api::waiting_agents(&c3).await
                })
                .await?
                .map(|w| w.tasks);
            let extras = last.with_value(|last| Extras {
                prs: unchanged(&last.prs, prs),
                questions: unchanged(&last.questions, questions),
                agents: unchanged(&last.agents, agents),
            });
            last.set_value(extras.clone());
            Ok(extras)
        })
    }
);

/// Keeps the board's "Waiting on you" list up to date as the missions, PRs and questions
/// change. It starts when the PRs and questions are first read (`load_extras`), so in the
/// split build its code comes with that later chunk, not with the first load.
#[derive(Clone, Copy)]
struct Watch {
    /// Where it lives: the board's owner, taken when it starts.
    owner: StoredValue<Option<Owner>>,
    missions: PolledRead<Vec<ClientMission>>,
    /// The PRs' and questions' read, once made.
    extras: StoredValue<Option<PolledRead<Extras>>>,
    into: RwSignal<Option<Vec<WaitItem>>>,
}

impl Watch {
    /// Keeps `into` what waits, as the missions, PRs and questions change; once.
    fn start(self) {
        let (Some(owner), Some(extras)) = (
            self.owner.try_update_value(Option::take).flatten(),
            self.extras.get_value(),
        ) else {
            return;
        };
        let Watch { missions, into, .. } = self;
        owner.with(|| {
            Effect::new(move |_| {
                let items = missions.with_data(|m| {
                    extras.with_data(|e| {
                        waiting_on_you(
                            m,
                            e.prs.as_deref(),
                            e.questions.as_deref().unwrap_or_default(),
                            e.agents.as_deref().unwrap_or_default(),
                        )
                    })
                });
                let items = items.flatten();
                if into.with_untracked(|w| *w != items) {
                    into.set(items);
                }
            })
        });
    }
}

#[derive(Clone, Copy)]
pub struct BoardState {
    /// As the command center reads them: without description, workspace, schedule and
    /// merge policies. Their reload, like the extras', reads both again.
    pub missions: PolledRead<Vec<ClientMission>>,
    pub extras: PolledRead<Extras>,
    /// Reads both again.
    pub retry: Callback<()>,
    /// What a person must act on, oldest first: `None` until the missions, PRs and
    /// questions are all in.
    pub waiting: ReadSignal<Option<Vec<WaitItem>>>,
    /// How many: 0 until they are all in.
    pub count: Memo<usize>,
}

/// Reads `read` of the current connection once what it offers is known, again whenever
/// either changes; a refused key is forgotten, not asked with again.
fn polled_board<T, Fut>(read: impl Fn(Connection, Offered) -> Fut + Copy + 'static) -> PolledRead<T>
where
    T: Default + PartialEq + Send + Sync + 'static,
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
    let missions = polled_board(move |c, _| load_missions(c, confirmed));
    let last_extras = StoredValue::new(Extras::default());
    let waiting = RwSignal::new(None);
    let watch = Watch {
        owner: StoredValue::new(Owner::current()),
        missions,
        extras: StoredValue::new(None),
        into: waiting,
    };
    let extras = polled_board(move |c, offered| async move {
        first.shown().await;
        load_extras(c, offered, last_extras, watch).await
    });
    watch.extras.set_value(Some(extras));
    let retry = Callback::new(move |()| {
        missions.reload.run(());
        extras.reload.run(());
    });
    let (missions, extras) = (
        PolledRead {
            reload: retry,
            ..missions
        },
        PolledRead {
            reload: retry,
            ..extras
        },
    );
    let count = Memo::new(move |_| waiting.with(|w| w.as_ref().map_or(0, Vec::len)));
    provide_title(count);
    provide_context(BoardState {
        missions,
        extras,
        retry,
        waiting: waiting.read_only(),
        count,
    });
}

pub fn use_board() -> BoardState {
    expect_context::<BoardState>()
}
