//! A request a person starts (a save, a merge, a reply): whether it is on its way, and why
//! the last one failed. Every form and button of the dashboard sends through it, so each
//! behaves alike: its button is disabled while busy, and a failure changes nothing but the
//! error, so what the person typed stays for another try.

use crate::api::ApiError;
use crate::state::connection::{use_connection, Connection, ConnectionState};
use crate::state::request::with_connection;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::future::Future;

/// Lives above the refreshed view that shows it, like the text it saves. `E` is what a
/// failure shows: a sentence, or more where the view needs it (the PR it is about).
pub struct Write<E: 'static = String> {
    busy: RwSignal<bool>,
    error: RwSignal<Option<E>>,
    connection: ConnectionState,
}

impl<E> Clone for Write<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Write<E> {}

impl<E: Clone + Send + Sync + 'static> Default for Write<E> {
    fn default() -> Self {
        Self::new()
    }
}

/// `why` for a refusal told as "`what`: the server's words".
pub fn refused(what: &'static str) -> impl FnOnce(&ApiError) -> String {
    move |e| format!("{what}: {}", e.refusal())
}

impl<E: Clone + Send + Sync + 'static> Write<E> {
    /// Sends with this tab's connection, so it is made where that is in context.
    pub fn new() -> Self {
        Self {
            busy: RwSignal::new(false),
            error: RwSignal::new(None),
            connection: use_connection(),
        }
    }

    /// Another request that waits for this one: one busy flag for both, its own error.
    pub fn sharing_busy<F: Clone + Send + Sync + 'static>(&self) -> Write<F> {
        Write {
            busy: self.busy,
            error: RwSignal::new(None),
            connection: self.connection,
        }
    }

    pub fn busy(&self) -> bool {
        self.busy.get()
    }

    pub fn error(&self) -> Option<E> {
        self.error.get()
    }

    /// Shows why nothing was sent (the input was checked first).
    pub fn fail(&self, why: E) {
        self.error.set(Some(why));
    }

    pub fn clear_error(&self) {
        self.error.set(None);
    }

    /// As new, when the same page goes on to show another task.
    pub fn reset(&self) {
        self.busy.set(false);
        self.error.set(None);
    }

    /// Sends `request` with this tab's connection; see [`Write::run`].
    pub fn send<T: 'static, Fut>(
        self,
        request: impl FnOnce(Connection) -> Fut,
        why: impl FnOnce(&ApiError) -> E + 'static,
        done: impl FnOnce(T) + 'static,
    ) where
        Fut: Future<Output = Result<T, ApiError>> + 'static,
    {
        self.run(with_connection(&self.connection, request), why, done);
    }

    /// [`Write::send`]; once it succeeds `form` is cleared (an editor or a dialog closes,
    /// typed text empties) and `refresh` shows what changed.
    pub fn send_then_clear<F, T: 'static, Fut>(
        self,
        form: RwSignal<F>,
        request: impl FnOnce(Connection) -> Fut,
        why: impl FnOnce(&ApiError) -> E + 'static,
        refresh: Callback<()>,
    ) where
        F: Default + Send + Sync + 'static,
        Fut: Future<Output = Result<T, ApiError>> + 'static,
    {
        self.send(request, why, move |_| {
            form.set(F::default());
            refresh.run(());
        });
    }

    /// Busy until `request` answers; then `done` gets the answer, or the error becomes
    /// `why` of the failure and nothing else changes.
    pub fn run<T: 'static>(
        self,
        request: impl Future<Output = Result<T, ApiError>> + 'static,
        why: impl FnOnce(&ApiError) -> E + 'static,
        done: impl FnOnce(T) + 'static,
    ) {
        self.busy.set(true);
        self.error.set(None);
        spawn_local(async move {
            match request.await {
                Ok(answer) => done(answer),
                Err(e) => self.error.set(Some(why(&e))),
            }
            self.busy.set(false);
        });
    }
}
