//! A picture of columns as a table: a row a column (a week, an hour), its figures in words.
//! What a screen reader reads instead of the picture.

use leptos::prelude::*;

#[component]
pub fn FiguresTable(
    caption: &'static str,
    testid: &'static str,
    /// The first column's heading, then each figure's.
    heads: &'static [&'static str],
    /// A row a column: its label, then its figures.
    #[prop(into)]
    rows: Signal<Vec<Vec<String>>>,
) -> impl IntoView {
    let body = move || {
        rows.get()
            .into_iter()
            .map(|row| {
                let mut cells = row.into_iter();
                let head = cells.next().unwrap_or_default();
                view! {
                    <tr>
                        <th scope="row">{head}</th>
                        {cells.map(|c| view! { <td>{c}</td> }).collect_view()}
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <div class="pic__tables" role="region" aria-label=caption tabindex="0">
            <table class="pic__table" data-testid=format!("{testid}-table")>
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        {heads.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
