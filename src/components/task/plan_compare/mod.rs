//! A revised plan set against the revision it replaces (buildd-core's `diff_plans`), so a
//! reviewer reads only what changed since they sent it back: steps added, removed and
//! changed, which fields changed, and a changed description word by word. Insertions and
//! deletions are `<ins>`/`<del>` with their kind in words, never told by colour alone.

pub mod changed_step;
pub mod comment_outcome_note;
pub mod comparison;
pub mod step_refs;
pub mod word_diff;

use self::changed_step::ChangedStep;
use self::comparison::Comparison;
use self::step_refs::step_key;
use crate::state::rows::{row_memo, unique_keys};
use buildd_core::plan_diff::StepChange;
use leptos::prelude::*;

/// What changed since the revision this one replaces.
#[component]
pub fn PlanCompare(comparison: Memo<Comparison>) -> impl IntoView {
    let shown = Memo::new(move |_| {
        comparison.with(|c| {
            c.diff
                .steps
                .iter()
                .filter(|s| s.change != StepChange::Unchanged)
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let keys = Memo::new(move |_| shown.with(|s| unique_keys(s.iter().map(step_key))));
    let row = move |key: String| {
        let step = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            shown.with(|s| s.get(at).cloned())
        });
        view! { <ChangedStep step comparison /> }
    };
    view! {
        <section class="plan-compare" data-testid="plan-compare">
            <h3>{move || format!("Compared with revision {}", comparison.with(|c| c.against))}</h3>
            <p class="small" data-testid="plan-compare-summary">
                {move || comparison.with(Comparison::summary)}
            </p>
            <p class="muted small" class:hidden=move || shown.with(Vec::is_empty)>
                "Struck-through words were removed, underlined words added."
            </p>
            <ul class="plan-compare__steps">
                <For each=move || keys.get() key=String::clone children=row />
            </ul>
        </section>
    }
}
