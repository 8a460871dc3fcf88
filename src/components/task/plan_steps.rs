//! A decided plan's steps, as its output lists them, keyed by their refs.

use crate::components::shared::markdown::Markdown;
use crate::state::rows::{row_memo, unique_keys};
use leptos::prelude::*;
use serde_json::Value;

/// A step's field as text.
fn text(step: &Value, key: &str) -> String {
    step.get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

#[component]
pub fn PlanSteps(steps: Memo<Vec<Value>>) -> impl IntoView {
    let keys = Memo::new(move |_| steps.with(|s| unique_keys(s.iter().map(|s| text(s, "ref")))));
    let step = move |key: String| {
        let step = row_memo(move || {
            let at = keys.with(|k| k.iter().position(|k| *k == key))?;
            steps.with(|s| s.get(at).cloned())
        });
        let description = Memo::new(move |_| step.with(|s| text(s, "description")));
        view! {
            <li>
                <strong>{move || step.with(|s| text(s, "title"))}</strong>
                <span class="muted small">
                    {move || step.with(|s| format!(" ({})", text(s, "ref")))}
                </span>
                <div class="small">
                    <Markdown source=description />
                </div>
            </li>
        }
    };
    view! {
        <section class="card">
            <h2 class="card__title">"Plan"</h2>
            <ol class="plan-steps">
                <For each=move || keys.get() key=String::clone children=step />
            </ol>
        </section>
    }
}
