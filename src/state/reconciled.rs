//! A hosted Buildd keeps PR state from GitHub's webhooks, so a missed one leaves a merged
//! PR "open": opening a mission's page asks Buildd to reconcile it, once a minute a mission
//! at most (buildd-core's `reconcile_due`), and reads the mission again when Buildd
//! corrected something.

use super::connection::ConnectionState;
use super::request::with_connection;
use crate::api;
use buildd_core::reconcile::reconcile_due;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    /// When each mission was last asked for, in this tab.
    static ASKED: RefCell<HashMap<String, f64>> = RefCell::new(HashMap::new());
}

/// Asks for `mission` when it is due; `reread` runs once Buildd corrected a PR's state.
pub fn reconcile_on_open(connection: ConnectionState, mission: String, reread: Callback<()>) {
    let now = js_sys::Date::now();
    let due = ASKED.with(|asked| {
        let mut asked = asked.borrow_mut();
        let due = reconcile_due(asked.get(&mission).copied(), now);
        if due {
            asked.insert(mission.clone(), now);
        }
        due
    });
    if !due {
        return;
    }
    let sent = with_connection(&connection, move |c| async move {
        api::reconcile_prs(&c, &mission).await
    });
    leptos::task::spawn_local(async move {
        // Best effort: the page shows what Buildd has either way.
        if sent.await.is_ok_and(|r| r.corrected > 0) {
            reread.run(());
        }
    });
}
