//! What a polled read shows, the same on every page and panel: Loading until its first
//! answer, then the view of its data, and the ErrorPanel with Retry while a read fails.

use crate::components::shared::error_panel::ErrorPanel;
use crate::components::shared::loading::Loading;
use crate::state::refresh::PolledRead;
use leptos::prelude::*;
use std::sync::Arc;

/// The data of `read` as a memo of its own, made once the first data is in: the same
/// reading shared (the read already tells a new answer from an equal one), and the last
/// data kept while a read fails, when the view is hidden.
fn data_of<T: PartialEq + Send + Sync + 'static>(read: PolledRead<T>) -> Memo<Arc<T>> {
    let data = Memo::new_with_compare(
        move |last: Option<&Arc<T>>| match (read.data(), last) {
            (Some(data), _) => data,
            (None, Some(last)) => last.clone(),
            (None, None) => unreachable!("made once the first data is in"),
        },
        |a, b| !matches!((a, b), (Some(a), Some(b)) if Arc::ptr_eq(a, b)),
    );
    data.with_untracked(|_| ());
    data
}

/// `children` is given the data as a memo: the view is made once, at the first answer,
/// and every later answer updates it in place. While a read fails it is hidden behind the
/// error, not dropped, so what a person typed in it is there again once a read succeeds.
#[component]
pub fn Polled<T, F, V>(
    read: PolledRead<T>,
    /// What Loading says ("Loading the mission…").
    loading: &'static str,
    children: F,
) -> impl IntoView
where
    T: PartialEq + Send + Sync + 'static,
    F: Fn(Memo<Arc<T>>) -> V + Send + 'static,
    V: IntoView + 'static,
{
    // Turns true at the first data and stays so.
    let ready = Memo::new(move |was: Option<&bool>| {
        was == Some(&true) || read.value.with(|v| matches!(v, Some(Ok(_))))
    });
    view! {
        {move || match read.value.with(|v| v.as_ref().map(|r| r.as_ref().err().cloned())) {
            None => Some(view! { <Loading label=loading /> }.into_any()),
            Some(Some(error)) => {
                Some(view! { <ErrorPanel error on_retry=read.reload /> }.into_any())
            }
            Some(None) => None,
        }}
        {move || {
            ready
                .get()
                .then(|| {
                    let data = data_of(read);
                    view! {
                        <div hidden=move || {
                            read.value.with(|v| matches!(v, Some(Err(_))))
                        }>{children(data)}</div>
                    }
                })
        }}
    }
}
