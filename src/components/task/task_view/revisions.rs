//! The plans a revision replaces, read for the task page, and what changed since the last.

use crate::components::task::plan_compare::comparison::Comparison;
use crate::components::task::revision_history::history::{History, Replaces};
use crate::components::task::revision_history::read_history::read_history;
use crate::state::connection::use_connection;
use crate::state::refresh::{polled, PolledRead};
use crate::state::request::with_connection;
use buildd_core::client::ClientTask;
use buildd_core::plan_output::PlanStep;
use leptos::prelude::*;

/// What `task` says of the plan it revises, and the plans before it, walked back through
/// the tasks API (`None` for a plan that revises none).
pub fn read_revisions(
    task: Memo<ClientTask>,
) -> (Memo<Option<Replaces>>, PolledRead<Option<History>>) {
    let replaces = Memo::new(move |_| task.with(Replaces::of));
    let connection = use_connection();
    let history = polled(move || {
        let replaces = replaces.get();
        with_connection(&connection, move |c| async move {
            match replaces {
                Some(first) => read_history(c, first).await.map(Some),
                None => Ok(None),
            }
        })
    });
    (replaces, history)
}

/// The plan of `steps` set against the revision before it, once that is read.
pub fn compare_with_last(
    steps: Memo<Option<Vec<PlanStep>>>,
    history: PolledRead<Option<History>>,
) -> Memo<Option<Comparison>> {
    Memo::new(move |_| {
        let steps = steps.get().filter(|s| !s.is_empty())?;
        history
            .with_data(|h| {
                h.as_ref().and_then(|h| {
                    h.earlier.last().map(|last| {
                        Comparison::of(h.number() - 1, &last.steps, &steps, &last.step_comments)
                    })
                })
            })
            .flatten()
    })
}
