//! Activity's reads: the first page of the team's tasks under the address's query, kept
//! fresh, and the pages a person loads after it ("Load more"), kept until the query
//! changes. Where the filters apply (this server, or here on a hosted Buildd's list) is
//! the API client's to say once what the server offers is known.

use crate::api::{self, ActivitySource};
use crate::state::capabilities::{use_capabilities, Offered};
use crate::state::connection::use_connection;
use crate::state::mutation::Mutation;
use crate::state::refresh::{polled, PolledRead};
use crate::state::request::with_connection;
use buildd_core::activity::{ActivityPage, ActivityQuery, ActivityTask};
use buildd_core::capabilities::Extra;
use leptos::prelude::*;

/// The pages read after the first, for the query they were read under.
#[derive(Clone, Debug, PartialEq)]
struct Later {
    query: ActivityQuery,
    tasks: Vec<ActivityTask>,
    next: Option<String>,
}

#[derive(Clone, Copy)]
pub struct ActivityRead {
    /// The first page, polled.
    pub first: PolledRead<ActivityPage>,
    query: Memo<ActivityQuery>,
    later: RwSignal<Option<Later>>,
    /// Reads the page after the cursor given.
    pub more: Mutation<String>,
}

fn source(offered: Offered) -> ActivitySource {
    if offered.has_untracked(Extra::Activity) {
        ActivitySource::Server
    } else {
        ActivitySource::BuilddList
    }
}

impl ActivityRead {
    /// The later pages of the current query (tracked).
    fn later_now(&self) -> Option<Later> {
        let query = self.query.get();
        self.later.get().filter(|l| l.query == query)
    }

    /// Every task read: the first page, then the later ones, each task once (the first
    /// page's copy, the freshest) (tracked).
    pub fn tasks(&self) -> Vec<ActivityTask> {
        let mut shown = self
            .first
            .with_data(|p| p.tasks.clone())
            .unwrap_or_default();
        if let Some(later) = self.later_now() {
            for t in later.tasks {
                if !shown.iter().any(|s| s.id == t.id) {
                    shown.push(t);
                }
            }
        }
        shown
    }

    /// Where the next page starts, while there is one (tracked).
    pub fn next_cursor(&self) -> Option<String> {
        match self.later_now() {
            Some(later) => later.next,
            None => self.first.with_data(|p| p.next_cursor.clone()).flatten(),
        }
    }

    /// How many tasks pass the filters, on every page (tracked).
    pub fn total(&self) -> u64 {
        self.first.with_data(|p| p.total).unwrap_or(0)
    }

    /// Reads the next page, when there is one.
    pub fn load_more(&self) {
        if let Some(cursor) = self.next_cursor() {
            self.more.dispatch(cursor);
        }
    }
}

/// Reads the team's tasks under `query`, again whenever it changes.
pub fn activity_read(query: Memo<ActivityQuery>) -> ActivityRead {
    let connection = use_connection();
    let offered = use_capabilities();
    let first = polled(move || {
        let query = query.get();
        async move {
            // Loading until the capabilities are in: they say which list is read.
            offered.known_soon().await;
            with_connection(&connection, |c| async move {
                api::activity(&c, &query, source(offered)).await
            })
            .await
        }
    });
    let later = RwSignal::new(None::<Later>);
    let more = Mutation::request(
        move |c, cursor: &String| {
            let base = query.get_untracked();
            let asked = ActivityQuery {
                cursor: Some(cursor.clone()),
                ..base.clone()
            };
            async move {
                let page = api::activity(&c, &asked, source(offered)).await?;
                later.update(|l| match l.as_mut().filter(|l| l.query == base) {
                    Some(l) => {
                        l.tasks.extend(page.tasks);
                        l.next = page.next_cursor;
                    }
                    None => {
                        *l = Some(Later {
                            query: base,
                            tasks: page.tasks,
                            next: page.next_cursor,
                        })
                    }
                });
                Ok(())
            }
        },
        |e| format!("More tasks could not be read: {}", e.refusal()),
    );
    ActivityRead {
        first,
        query,
        later,
        more,
    }
}
