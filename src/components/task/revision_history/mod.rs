//! A revised plan's history: which revision it is and, for each earlier one, when it was
//! sent back and with what feedback. Read by walking `previousPlanTaskId` back through the
//! tasks API, as both this server and Buildd record it on each revision's context.

pub mod earlier_revision;
pub mod history;
pub mod read_history;

use self::earlier_revision::EarlierRevision;
use self::history::History;
use crate::state::rows::{row_memo, unique_keys};
use leptos::prelude::*;

/// "Revision N" and the revisions before it, oldest first.
#[component]
pub fn RevisionHistory(history: Memo<History>) -> impl IntoView {
    let keys = Memo::new(move |_| {
        history.with(|h| unique_keys(h.earlier.iter().map(|e| e.task_id.clone())))
    });
    let row = move |key: String| {
        let at = Memo::new(move |_| keys.with(|k| k.iter().position(|k| *k == key)));
        let earlier = row_memo(move || {
            let at = at.get()?;
            history.with(|h| h.earlier.get(at).cloned())
        });
        let number = Memo::new(move |_| at.get().unwrap_or(0) + 1);
        view! { <EarlierRevision earlier number /> }
    };
    view! {
        <section class="card" data-testid="revision-history">
            <h2 class="card__title" data-testid="revision-number">
                {move || format!("Revision {}", history.with(|h| h.number()))}
            </h2>
            <p class="muted small">
                "This plan revises one a reviewer sent back. Earlier revisions, oldest first:"
            </p>
            <ol class="revision-history">
                <For each=move || keys.get() key=String::clone children=row />
            </ol>
        </section>
    }
}
