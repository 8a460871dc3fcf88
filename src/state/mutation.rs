//! A change a person makes (a save, a merge, a reply): a Leptos `Action` whose value is
//! the last outcome. It is busy while a request is on its way (the action's `pending`), a
//! refusal reads as the server's reason, and a failure changes nothing else, so what the
//! person typed stays for another try. Every form and button of the dashboard sends
//! through one, so each behaves alike.

use crate::api::{ApiError, Connection};
use crate::state::connection::use_connection;
use crate::state::request::settle;
use leptos::prelude::*;
use std::future::Future;
use std::rc::Rc;

/// Sends an `I` at a time; answers `O`, or fails with `E`, what the view shows of a
/// failure: a sentence, or more where the view needs it (the PR it is about).
pub struct Mutation<I: 'static, O: 'static = (), E: 'static = String> {
    action: Action<I, Result<O, E>>,
}

impl<I, O, E> Clone for Mutation<I, O, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I, O, E> Copy for Mutation<I, O, E> {}

/// `why` for a refusal told as "`what`: the server's words".
pub fn refused(what: &'static str) -> impl Fn(&ApiError) -> String {
    move |e| format!("{what}: {}", e.refusal())
}

impl<I: 'static, O: Clone + 'static, E: Clone + 'static> Mutation<I, O, E> {
    /// Runs `send` for each input dispatched.
    pub fn new<Fut>(send: impl Fn(&I) -> Fut + 'static) -> Self
    where
        Fut: Future<Output = Result<O, E>> + 'static,
    {
        Self {
            action: Action::new_local(send),
        }
    }

    /// Sends `request` for each input with this tab's connection (so it is made where that
    /// is in context); a failure reads as `why` of it. What follows a success (a refresh, a
    /// form closing) goes in `request`, after its answer.
    pub fn request<Fut>(
        request: impl Fn(Connection, &I) -> Fut + 'static,
        why: impl Fn(&ApiError) -> E + 'static,
    ) -> Self
    where
        Fut: Future<Output = Result<O, ApiError>> + 'static,
    {
        let connection = use_connection();
        let why = Rc::new(why);
        Self::new(move |input| {
            let sent = settle(
                connection,
                connection.get_untracked().map(|c| request(c, input)),
            );
            let why = why.clone();
            async move { sent.await.map_err(|e| why(&e)) }
        })
    }

    /// [`Mutation::request`] for a form: once a request succeeds, `form` is cleared (an
    /// editor or a dialog closes, typed text empties) and `refresh` shows what changed.
    pub fn send_then_clear<F, Fut>(
        form: RwSignal<F>,
        refresh: Callback<()>,
        request: impl Fn(Connection, &I) -> Fut + 'static,
        why: impl Fn(&ApiError) -> E + 'static,
    ) -> Self
    where
        F: Default + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ApiError>> + 'static,
    {
        Self::request(
            move |c, input| {
                let sent = request(c, input);
                async move {
                    let answer = sent.await?;
                    form.set(F::default());
                    refresh.run(());
                    Ok(answer)
                }
            },
            why,
        )
    }

    pub fn dispatch(&self, input: I) {
        self.action.dispatch_local(input);
    }

    /// Whether a request is on its way (tracked).
    pub fn busy(&self) -> bool {
        self.action.pending().get()
    }

    /// Why the last request failed, once nothing is on its way (tracked).
    pub fn error(&self) -> Option<E> {
        if self.busy() {
            return None;
        }
        self.action
            .value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().err().cloned()))
    }

    /// The last request's answer, once it succeeded (tracked).
    pub fn answer(&self) -> Option<O> {
        self.action
            .value()
            .with(|v| v.as_ref().and_then(|r| r.as_ref().ok().cloned()))
    }

    /// Shows why nothing was sent (the input was checked first).
    pub fn fail(&self, why: E) {
        self.action.value().set(Some(Err(why)));
    }

    /// Forgets the last outcome, as when a form opens again.
    pub fn clear(&self) {
        self.action.value().set(None);
    }
}
