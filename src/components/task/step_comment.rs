//! A reviewer's comment pinned to one step of a plan they are sending back: opened under
//! the step, so the organizer reads which step each remark is about. The text lives in the
//! review (by the step's ref), so it outlasts a refused send and a refresh of the steps.

use leptos::prelude::*;
use std::collections::BTreeMap;

#[component]
pub fn StepComment(
    /// The step's ref.
    #[prop(into)]
    step_ref: Signal<String>,
    /// Every step's comment by ref; a step with an entry has its box open.
    comments: RwSignal<BTreeMap<String, String>>,
    /// Comments are written while Reject is open.
    #[prop(into)]
    writing: Signal<bool>,
) -> impl IntoView {
    let text = Memo::new(move |_| step_ref.with(|r| comments.with(|c| c.get(r).cloned())));
    let open = Memo::new(move |_| text.with(Option::is_some));
    let input = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if open.get() {
            if let Some(el) = input.get() {
                let _ = el.focus();
            }
        }
    });
    let set = move |value: Option<String>| {
        let key = step_ref.get_untracked();
        comments.update(|c| match value {
            Some(v) => {
                c.insert(key, v);
            }
            None => {
                c.remove(&key);
            }
        });
    };
    view! {
        <div class="step-comment" class:hidden=move || !writing.get()>
            <button
                type="button"
                class="button button--small"
                class:hidden=open
                on:click=move |_| set(Some(String::new()))
                data-testid="comment-step"
            >
                "Comment on this step"
            </button>
            <label class="field" class:hidden=move || !open.get()>
                <span class="field__label">
                    {move || format!("Your comment on {}", step_ref.get())}
                </span>
                <textarea
                    rows=2
                    node_ref=input
                    prop:value=move || text.get().unwrap_or_default()
                    on:input=move |ev| set(Some(event_target_value(&ev)))
                    data-testid="step-comment-input"
                ></textarea>
            </label>
            <button
                type="button"
                class="button button--small"
                class:hidden=move || !open.get()
                on:click=move |_| set(None)
                data-testid="remove-step-comment"
            >
                "Remove comment"
            </button>
        </div>
    }
}
