//! The command center's keys: j/k move between missions in the order shown (planning
//! first), Enter opens one, a/r open its plan in review to approve or reject, ? shows them.
//! In the split build they come with the chunk that follows the first rows: no one presses
//! a key at a list not yet drawn.

use super::shortcuts::Shortcuts;
use crate::api::ApiError;
use crate::state::first_screen::{split_off, Later};
use crate::state::refresh::PolledRead;
use buildd_core::client::ClientMission;
use buildd_core::plan::plan_in_review;
use buildd_core::planning_loop::LoopStep;
use leptos::ev;
use leptos::prelude::*;

/// Moves the keyboard focus to the selected row's link once it is drawn, so Enter there (or
/// Tab from there) goes on from the selection and the row scrolls into view.
fn focus_selected() {
    request_animation_frame(|| {
        use wasm_bindgen::JsCast;
        let link = document()
            .query_selector("[data-testid=command-row][aria-current=true] .command-row__title")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(link) = link {
            let _ = link.focus();
        }
    });
}

split_off!(
    after_first_rows,
    AnyView,
    /// Listens for the keys while the calling view lives; `rows` as shown (planning
    /// first), `go` navigates.
    pub fn command_keys(
        rows: Memo<Vec<(String, LoopStep)>>,
        missions: PolledRead<Vec<ClientMission>>,
        selected: RwSignal<usize>,
        help: RwSignal<bool>,
        go: Callback<String>,
    ) -> Later<Result<AnyView, ApiError>> {
        let keys = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
            let focused = document().active_element().map(|el| el.tag_name());
            let typing = focused
                .as_deref()
                .is_some_and(|t| matches!(t, "INPUT" | "TEXTAREA" | "SELECT"));
            if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            // Enter on a focused link or button is that element's: the selection waits.
            let on_control = focused
                .as_deref()
                .is_some_and(|t| matches!(t, "A" | "BUTTON"));
            let shown = rows.with_untracked(Vec::len);
            // The selected mission: its id and its plan in review, if any.
            let current = rows
                .with_untracked(|r| r.get(selected.get_untracked()).map(|(id, _)| id.clone()))
                .map(|id| {
                    let plan = missions.value.with_untracked(|m| {
                        let m = m.as_ref()?.as_ref().ok()?.iter().find(|m| m.id == id)?;
                        plan_in_review(&m.tasks).map(|t| t.id.clone())
                    });
                    (id, plan)
                });
            match e.key().as_str() {
                "j" if shown > 0 => {
                    selected.update(|i| *i = (*i + 1).min(shown - 1));
                    focus_selected();
                }
                "k" => {
                    selected.update(|i| *i = i.saturating_sub(1));
                    focus_selected();
                }
                "?" => help.update(|h| *h = !*h),
                "Escape" => help.set(false),
                "Enter" if !on_control => {
                    if let Some((id, _)) = current {
                        go.run(format!("/missions/{id}"));
                    }
                }
                // On a plan in review: a opens it to approve, r opens it with the feedback form.
                "a" | "r" => {
                    if let Some((_, Some(plan))) = current {
                        let reject = if e.key() == "r" { "?reject" } else { "" };
                        go.run(format!("/tasks/{plan}{reject}"));
                    }
                }
                _ => {}
            }
        });
        on_cleanup(move || keys.remove());
        // The keys listed, and a mark that they are live for whoever must wait for them
        // (the browser tests).
        let live = view! {
            <Shortcuts shown=help />
            <span hidden data-testid="keys-live"></span>
        }
        .into_any();
        Box::pin(async { Ok(live) })
    }
);
