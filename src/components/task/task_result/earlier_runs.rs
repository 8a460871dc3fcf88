//! `<EarlierRuns>`: a task's attempts before the latest, folded away, a line each.

use leptos::prelude::*;

#[component]
pub fn EarlierRuns(
    /// The attempts' lines (tracked); nothing shows while there are none.
    earlier: Memo<Vec<String>>,
) -> impl IntoView {
    let has_earlier = Memo::new(move |_| earlier.with(|lines| !lines.is_empty()));
    move || {
        has_earlier.get().then(|| {
            view! {
                <details class="small" data-testid="earlier-runs">
                    <summary>
                        {move || format!("Earlier attempts ({})", earlier.with(Vec::len))}
                    </summary>
                    <ol class="earlier-runs">
                        {move || {
                            earlier
                                .get()
                                .into_iter()
                                .map(|line| view! { <li>{line}</li> })
                                .collect_view()
                        }}
                    </ol>
                </details>
            }
        })
    }
}
