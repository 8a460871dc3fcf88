//! One picture's card: its title, its summary in a sentence (core's `describe`), what this
//! server's answers cannot show said in place, the picture with the figures of the point
//! hovered or focused read out beside it, and its table one click away. The table is made
//! only when asked for: a long history is thousands of rows.

use leptos::prelude::*;

#[component]
pub fn Picture(
    title: &'static str,
    /// Names its parts for tests: `{testid}`, `{testid}-table-toggle`, `{testid}-readout`.
    testid: &'static str,
    /// The picture in a sentence, for everyone.
    #[prop(into)]
    summary: Signal<String>,
    /// What the answers do not carry, so it is not drawn ("Buildd's answers carry no spend").
    #[prop(into)]
    missing: Signal<Option<String>>,
    /// What the point hovered or focused says; read out as it changes.
    #[prop(into)]
    said: Signal<Option<String>>,
    /// How to move about the picture by keyboard.
    keys: &'static str,
    picture: ViewFn,
    table: ViewFn,
) -> impl IntoView {
    let as_table = RwSignal::new(false);
    let heading = format!("{testid}-title");
    let labelled_by = heading.clone();
    view! {
        <section class="card pic" data-testid=testid aria-labelledby=labelled_by>
            <div class="pic__head">
                <h3 class="card__title" id=heading>
                    {title}
                </h3>
                <button
                    class="button button--small"
                    aria-expanded=move || as_table.get().to_string()
                    data-testid=format!("{testid}-table-toggle")
                    on:click=move |_| as_table.update(|t| *t = !*t)
                >
                    {move || if as_table.get() { "Show as picture" } else { "Show as table" }}
                </button>
            </div>
            <p class="pic__summary" data-testid=format!("{testid}-summary")>
                {summary}
            </p>
            {move || {
                missing
                    .get()
                    .map(|text| {
                        view! {
                            <p class="muted small" data-testid="not-offered">
                                {text}
                            </p>
                        }
                    })
            }}
            <div hidden=move || {
                as_table.get()
            }>
                {picture.run()} <p class="muted small pic__keys">{keys}</p>
                <p
                    class="pic__readout small"
                    aria-live="polite"
                    data-testid=format!("{testid}-readout")
                >
                    {move || said.get().unwrap_or_default()}
                </p>
            </div>
            {move || as_table.get().then(|| table.run())}
        </section>
    }
}
