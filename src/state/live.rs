//! The change stream of this tab's connection, where its API offers one (this server does;
//! the real Buildd does not). While the stream is open, panels read again only when it says
//! the team's data moved, so an idle page reads nothing; while it is closed or missing,
//! they poll at their pace. One stream per tab, resumed with the last event's id, so a
//! change made while it reconnected is heard at once.

use crate::api::{self, ApiError, Connection};
use crate::state::capabilities::use_capabilities;
use crate::state::connection::use_connection;
use crate::state::first_screen::{split_off, use_first_screen, Later};
use buildd_core::capabilities::Extra;
use buildd_core::event_stream::CHANGE;
use buildd_core::polling::reconnect_after;
use leptos::prelude::*;
use leptos::task::spawn_local;
use web_sys::AbortController;

#[derive(Clone, Copy)]
pub struct Live {
    open: RwSignal<bool>,
    /// Counts the change events heard.
    changes: RwSignal<u64>,
}

impl Live {
    /// Whether the stream is open now (tracked).
    pub fn is_open(&self) -> bool {
        self.open.get()
    }

    pub fn is_open_untracked(&self) -> bool {
        self.open.get_untracked()
    }

    /// How many changes were heard (tracked): it moves with each one.
    pub fn changes(&self) -> u64 {
        self.changes.get()
    }
}

/// Opens the stream whenever the connection (or what it offers) changes, and provides it.
/// A hidden tab closes its stream (a browser allows only six connections to a server
/// across all its tabs, and a hidden tab reads nothing anyway); it opens again, resuming
/// from the last id, when the tab is shown.
pub fn provide_live() {
    let connection = use_connection();
    let offered = use_capabilities();
    let first = use_first_screen();
    let live = Live {
        open: RwSignal::new(false),
        changes: RwSignal::new(0),
    };
    // Counts connections, so the loop of an earlier one stops.
    let run = StoredValue::new(0u32);
    let abort = StoredValue::new_local(None::<AbortController>);
    let shown = RwSignal::new(page_visible());
    let on_show = window_event_listener(leptos::ev::visibilitychange, move |_| {
        shown.set(page_visible());
    });
    on_cleanup(move || on_show.remove());
    // The connection to stream from, when its API offers the stream (and it has not
    // answered 404 or 405) and the tab is shown: a memo, so what else is found missing
    // meanwhile does not restart it.
    let streamed = Memo::new(move |_| {
        connection
            .get()
            .filter(|_| shown.get() && offered.has(Extra::ChangeStream))
    });
    // The last change heard, kept across streams of the same connection.
    let last_id = StoredValue::new(None::<(Connection, String)>);
    Effect::new(move |_| {
        let conn = streamed.get();
        run.update_value(|r| *r += 1);
        if let Some(controller) = abort.try_update_value(Option::take).flatten() {
            controller.abort();
        }
        live.open.set(false);
        let Some(conn) = conn else {
            return;
        };
        let Ok(controller) = AbortController::new() else {
            return;
        };
        let signal = controller.signal();
        abort.set_value(Some(controller));
        let mine = run.get_value();
        spawn_local(async move {
            // Its code is fetched once the first rows show (a chunk of its own).
            first.shown().await;
            // A chunk that did not load leaves the stream closed: the panels poll.
            if keep_open(live, conn, last_id, signal, run, mine).await == Ok(true) {
                offered.remember_missing(Extra::ChangeStream);
            }
        });
    });
    provide_context(live);
}

split_off!(
    after_first_rows,
    bool,
    /// Keeps the change stream of `conn` open, reconnecting whenever it ends, until a newer
    /// stream replaces it (`run` has moved past `mine`: the connection changed or the tab
    /// was hidden). Resumes from the last event id in `kept` when it was heard on this
    /// connection, and records each new one there. `Ok(true)` when the server turned out to
    /// have no change stream (404 or 405).
    fn keep_open(
        live: Live,
        conn: Connection,
        kept: StoredValue<Option<(Connection, String)>>,
        signal: web_sys::AbortSignal,
        run: StoredValue<u32>,
        mine: u32,
    ) -> Later<Result<bool, ApiError>> {
        Box::pin(async move {
            let current = move || run.try_get_value() == Some(mine);
            let mut last_id = kept
                .get_value()
                .filter(|(of, _)| *of == conn)
                .map(|(_, id)| id);
            let mut failures = 0u32;
            while current() {
                let mut opened = false;
                let ended = api::change_stream(
                    &conn,
                    last_id.clone(),
                    &signal,
                    || {
                        opened = true;
                        live.open.set(true);
                    },
                    |event| {
                        if event.name == CHANGE {
                            if let Some(id) = &event.id {
                                kept.set_value(Some((conn.clone(), id.clone())));
                            }
                            last_id = event.id;
                            live.changes.update(|n| *n += 1);
                        }
                    },
                )
                .await;
                if !current() {
                    return Ok(false);
                }
                live.open.set(false);
                match ended {
                    // The key is refused: the panels' own reads show the way to reconnect.
                    Err(e) if e.needs_new_key() => return Ok(false),
                    // Not there after all: polling carries on.
                    Err(ApiError::NotFound(_) | ApiError::Status(405, _)) => return Ok(true),
                    _ => {}
                }
                failures = if opened { 0 } else { failures + 1 };
                gloo_timers::future::sleep(reconnect_after(failures)).await;
            }
            Ok(false)
        })
    }
);

/// Whether the tab is shown; a hidden one reads nothing.
pub fn page_visible() -> bool {
    document().visibility_state() == web_sys::VisibilityState::Visible
}

pub fn use_live() -> Option<Live> {
    use_context::<Live>()
}
