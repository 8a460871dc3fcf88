//! `<MergePr>`: Merge… for a PR that waits for a person, and the confirmation it opens.

use crate::components::mission::confirm::Confirm;
use crate::state::mutation::Mutation;
use leptos::prelude::*;

#[component]
pub fn MergePr(
    number: i64,
    /// The one PR of the list whose merge is being confirmed.
    confirming: RwSignal<Option<i64>>,
    merge: Mutation<()>,
    /// Rails hold it, beyond the tier's own hold: the confirmation warns of them.
    held: Memo<bool>,
) -> impl IntoView {
    move || {
        if confirming.get() == Some(number) {
            view! {
                <Confirm
                    name="merge"
                    confirm="Merge"
                    working="Merging…"
                    busy=move || merge.busy()
                    on_confirm=move |()| merge.dispatch(())
                    on_cancel=move |()| confirming.set(None)
                >
                    <p>{format!("Squash-merge PR #{number} into its base branch?")}</p>
                    {move || {
                        held.get()
                            .then(|| {
                                view! {
                                    <p class="small" data-testid="merge-warning">
                                        "You merge past what holds it, listed above."
                                    </p>
                                }
                            })
                    }}
                </Confirm>
            }
            .into_any()
        } else {
            view! {
                <div class="actions">
                    <button
                        class="button"
                        data-testid="merge-pr"
                        on:click=move |_| {
                            merge.clear();
                            confirming.set(Some(number));
                        }
                    >
                        "Merge…"
                    </button>
                </div>
            }
            .into_any()
        }
    }
}
