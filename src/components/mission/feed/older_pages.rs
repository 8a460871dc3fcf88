//! `OlderPages`: the feed's pages read past the newest one, on request, and kept while the
//! newest page refreshes by itself.

use crate::api;
use crate::state::mutation::Mutation;
use crate::state::refresh::PolledRead;
use buildd_core::note::{MissionNote, NotesPage};
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct OlderPages {
    /// The notes read past the newest page, newest first.
    pub notes: RwSignal<Vec<MissionNote>>,
    /// Where the next older page starts.
    cursor: RwSignal<Option<String>>,
    /// No older page is left.
    pub done: RwSignal<bool>,
    pub read: Mutation<String>,
    newest: PolledRead<NotesPage>,
}

impl OlderPages {
    /// The older pages of mission `mission_id`'s feed, whose newest page is `newest`.
    pub fn new(mission_id: String, newest: PolledRead<NotesPage>) -> Self {
        let older = RwSignal::new(Vec::<MissionNote>::new());
        let cursor = RwSignal::new(None::<String>);
        let done = RwSignal::new(false);
        let read = Mutation::request(
            move |c, from: &String| {
                let (mission_id, from) = (mission_id.clone(), from.clone());
                async move {
                    let page = api::older_notes(&c, &mission_id, &from).await?;
                    let first = newest.with_data(|p| p.notes.clone()).unwrap_or_default();
                    older.update(|o| {
                        for n in first.into_iter().chain(page.notes) {
                            if !o.iter().any(|k| k.id == n.id) {
                                o.push(n);
                            }
                        }
                        o.sort_by(|a, b| b.created_at.cmp(&a.created_at));
                    });
                    done.set(!page.has_more || page.next_cursor.is_none());
                    cursor.set(page.next_cursor);
                    Ok(())
                }
            },
            |e| format!("Older notes could not be loaded: {e}"),
        );
        // Once older pages are read, every note the refreshed newest page shows is kept too,
        // so one that slides out of it stays on screen between the newest page and the older
        // ones.
        Effect::new(move |_| {
            let Some(page) = newest.with_data(|p| p.notes.clone()) else {
                return;
            };
            if older.with_untracked(Vec::is_empty) {
                return;
            }
            let mut kept = older.get_untracked();
            for n in page.iter().rev() {
                // The newest copy wins: a question answered since shows answered.
                match kept.iter_mut().find(|o| o.id == n.id) {
                    Some(k) => *k = n.clone(),
                    None => kept.insert(0, n.clone()),
                }
            }
            kept.sort_by(|a, b| b.created_at.cmp(&a.created_at));
            if older.with_untracked(|o| *o != kept) {
                older.set(kept);
            }
        });
        Self {
            notes: older,
            cursor,
            done,
            read,
            newest,
        }
    }

    /// Reads the next older page: after the last one read, or after the newest page.
    pub fn load(&self) {
        let newest = self.newest;
        let cursor = self.cursor.get_untracked().or_else(|| {
            newest
                .value
                .with_untracked(|n| n.as_ref()?.as_ref().ok()?.next_cursor.clone())
        });
        if let Some(cursor) = cursor {
            self.read.dispatch(cursor);
        }
    }
}
